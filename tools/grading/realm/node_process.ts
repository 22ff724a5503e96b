// What the sandbox's import map gives a learner's realm for `node:process`
// (and `process`): node's process, but for `getBuiltinModule`, which gives
// node's modules past the import map, `node:vm` among them, which makes a
// realm without the grader's mark (`graded_realm.ts`, which takes it from the
// global `process` too: it is the same object). The map sends this module's
// own `node:process` to node's.

import process from "node:process";

Reflect.deleteProperty(process, "getBuiltinModule");
// @ts-ignore: the types of node:process say `export =`; Deno's module has the named exports too.
export * from "node:process";
export default process;
