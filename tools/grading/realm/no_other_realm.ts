// What the sandbox's import map gives for every module that would make a
// realm beside the learner's (`REALM_MAKERS`, with or without `node:`): in a
// realm of its own, code runs where the grader's marks are not
// (`graded_realm.ts`). Importing one fails, saying so, as `require` does.

import { NO_OTHER_REALM } from "./realm_makers.ts";

throw new Error(NO_OTHER_REALM);
