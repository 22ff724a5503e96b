// Implementations of every graded function as learners write them: wrong ones,
// each named for the misconception behind it, that must lose marks, and right
// ones in other styles than the worked solution's, that must keep them all.
// tests/grading_accuracy_test.ts grades each one through the grader's own
// path (gradeLearner, in the sandbox, hidden cases included).

import { CH14_A } from "./ch14_a.ts";
import { CH14_B } from "./ch14_b.ts";
import { CH15 } from "./ch15.ts";
import { LAB_01 } from "./lab_01.ts";
import { LAB_02 } from "./lab_02.ts";
import { LAB_02_CLIENT } from "./lab_02_client.ts";
import { LAB_03 } from "./lab_03.ts";
import { LAB_04 } from "./lab_04.ts";
import type { Catalogue } from "./learner.ts";

export type { Catalogue };

/** Every graded function's catalogue. */
export const CATALOGUES: readonly Catalogue[] = [
  ...CH14_A,
  ...CH14_B,
  ...LAB_01,
  ...LAB_02,
  ...LAB_02_CLIENT,
  ...CH15,
  ...LAB_03,
  ...LAB_04,
];
