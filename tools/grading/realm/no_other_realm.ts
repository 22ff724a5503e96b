// What the sandbox's import map gives for every module that would make a
// realm beside the learner's (`node:vm`, `node:worker_threads`, `node:module`,
// `node:repl`, `node:inspector`, `node:cluster`, with or without `node:`):
// in a realm of its own, code runs where the grader's marks are not
// (`graded_realm.ts`). Importing one fails, saying so.

throw new Error(
  "this module is not given where work is graded: a learner's code runs in the one realm the " +
    "grader gives it (node:vm, node:worker_threads, node:module, node:repl, node:inspector and " +
    "node:cluster make another)",
);
