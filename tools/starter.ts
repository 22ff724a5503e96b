// `deno task starter UNIT...`: a fresh starter for a unit, such as
// `deno task starter ch14-b`. The learner's copy work/UNIT.ipynb is first
// moved aside to work/UNIT.before-TIME.ipynb, so nothing is lost; then the
// student edition is copied in its place. Reopen the notebook in JupyterLab.

import { learnerCopies } from "./learner_copies.ts";

if (Deno.args.length === 0) {
  console.error("Name the unit to start again, for example: deno task starter ch14-b");
  Deno.exit(2);
}
try {
  for (const copy of await learnerCopies({ fresh: Deno.args })) {
    if (copy.action === "replaced") {
      console.log(`${copy.copy}: a fresh starter; your earlier copy is ${copy.movedTo}`);
    } else if (copy.note !== undefined) console.log(copy.note);
    else if (copy.action === "made") console.log(`${copy.copy}: a fresh starter`);
  }
} catch (error) {
  console.error((error as Error).message);
  Deno.exit(2);
}
