// The library by layer (lib/README.md): every import in lib/, doc examples
// and dynamic imports included, points down or across into its own folder,
// never up. The MCP library (lib/mcp/) imports nothing of the course, so it
// can be lifted out as a package; the notebook's display imports neither the
// course nor grading; nothing in lib/ imports the programs and tests that
// use it (tools/, tests/, bench/) or the instructors' answers (solutions/,
// holdouts/).

import assert from "node:assert/strict";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));

/**
 * The layers from the bottom up. A file may import its own folder and any
 * folder of a lower layer; folders that share a layer (the client and the
 * server, Lab 01's judges and Chapter 15's containment) never import each
 * other. `outside` names what a layer may import from beyond lib/.
 */
const LAYERS: { folders: string[]; outside: string[] }[] = [
  // string formats as ajv-formats checks them, below the two that use them and of neither
  { folders: ["formats"], outside: [] },
  // the token mask (lib/mask/) sits beside the wire, and imports nothing of it
  { folders: ["mcp/shared", "mask"], outside: [] },
  { folders: ["mcp/client", "mcp/server"], outside: [] },
  // The MCP library's entry point (mcp/mod.ts), above its three folders.
  { folders: ["mcp"], outside: [] },
  { folders: ["notebook"], outside: [] },
  { folders: ["grading"], outside: [] },
  { folders: ["course"], outside: ["deno.json"] },
  { folders: ["judges", "containment"], outside: ["deno.json", "cases/", "servers/"] },
];

/** The layer and folder of a path under lib/ (`undefined` for none). */
function placeOf(path: string): { rank: number; folder: string } | undefined {
  for (const [rank, layer] of LAYERS.entries()) {
    const folder = layer.folders.find((name) => path.startsWith(`${name}/`));
    if (folder !== undefined) return { rank, folder };
  }
  return undefined;
}

/** Every specifier `text` imports: static, re-exported, side-effect and dynamic, in comments too. */
function specifiers(text: string): string[] {
  const found = [];
  for (const match of text.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)) found.push(match[1]);
  return found;
}

/** Why `file` (under lib/) may not import `specifier`, or `undefined` when it may. */
function violation(file: string, specifier: string): string | undefined {
  if (specifier.startsWith("node:") || specifier.startsWith("npm:")) return undefined;
  if (!specifier.startsWith(".")) return undefined; // a package deno.json maps
  const from = placeOf(file)!;
  const target = relative(LIB, fileURLToPath(new URL(specifier, `file://${LIB}${file}`)));
  if (target.startsWith("..")) {
    const outside = target.replace(/^(\.\.\/)+/, "");
    const allowed = LAYERS[from.rank].outside.some((prefix) =>
      prefix.endsWith("/") ? outside.startsWith(prefix) : outside === prefix
    );
    return allowed ? undefined : `imports ${outside}, outside lib/`;
  }
  const to = placeOf(target);
  if (to === undefined) return `imports ${target}, which is in no layer`;
  if (to.rank > from.rank) return `imports ${target}, a higher layer (${to.folder})`;
  if (to.rank === from.rank && to.folder !== from.folder) {
    return `imports ${target}, a folder beside its own (${to.folder})`;
  }
  return undefined;
}

/** Every .ts file under lib/, relative to it. */
async function libraryFiles(folder = LIB): Promise<string[]> {
  const files = [];
  for await (const entry of Deno.readDir(folder)) {
    const path = `${folder}${entry.name}`;
    if (entry.isDirectory) files.push(...await libraryFiles(`${path}/`));
    else if (entry.name.endsWith(".ts")) files.push(relative(LIB, path));
  }
  return files.sort();
}

Deno.test("every file in lib/ belongs to a layer", async () => {
  const homeless = (await libraryFiles()).filter((file) => placeOf(file) === undefined);
  assert.deepEqual(homeless, [], "files outside every layer's folder");
});

Deno.test("no import in lib/ runs up a layer, across to a sibling, or out to the programs", async () => {
  const problems = [];
  for (const file of await libraryFiles()) {
    const text = await Deno.readTextFile(`${LIB}${file}`);
    for (const specifier of specifiers(text)) {
      const why = violation(file, specifier);
      if (why !== undefined) problems.push(`lib/${file} ${why}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the layer check catches an import that runs up", () => {
  assert.match(violation("mcp/client/client.ts", "../../course/course.ts")!, /higher layer/);
  assert.match(violation("mcp/client/client.ts", "../server/dispatch.ts")!, /beside its own/);
  assert.match(violation("notebook/display.ts", "../course/course.ts")!, /higher layer/);
  assert.match(violation("mcp/client/client.ts", "../../../deno.json")!, /outside lib/);
  assert.match(violation("course/course.ts", "../../tools/grade.ts")!, /outside lib/);
  assert.equal(violation("course/course.ts", "../mcp/shared/errors.ts"), undefined);
  assert.equal(violation("containment/policy.ts", "../../servers/intruder.ts"), undefined);
  assert.equal(violation("mcp/mod.ts", "./server/dispatch.ts"), undefined);
  assert.match(violation("mcp/shared/errors.ts", "../mod.ts")!, /higher layer/);
  assert.match(violation("mcp/shared/jsonrpc.ts", "../../mask/formats.ts")!, /beside its own/);
  assert.match(violation("formats/format_patterns.ts", "../mask/formats.ts")!, /higher layer/);
  assert.equal(violation("mask/formats.ts", "../formats/format_patterns.ts"), undefined);
  assert.deepEqual(
    specifiers(
      ' * import { a } from "./a.ts";\nexport { b } from "./b.ts";\nawait import("./c.ts");',
    ),
    ["./a.ts", "./b.ts", "./c.ts"],
  );
});
