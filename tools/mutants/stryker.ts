// StrykerJS in a process of its own: StrykerJS works in the folder it is
// started in, so the mutation run starts this script in the folder that holds
// the modules to mutate.
//
//     deno run --allow-all tools/mutants/stryker.ts OPTIONS_JSON RESULTS_FILE
//
// It runs StrykerJS with OPTIONS_JSON (StrykerJS's own options) and writes
// the result of every mutant to RESULTS_FILE, as JSON.

import { Stryker } from "@stryker-mutator/core";

const [options, resultsFile] = Deno.args;
const results = await new Stryker(JSON.parse(options)).runMutationTest();
await Deno.writeTextFile(resultsFile, JSON.stringify(results));
// StrykerJS has ended its workers; nothing else is left to wait for.
Deno.exit(0);
