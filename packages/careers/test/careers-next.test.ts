import { defineApplyLimitsSuite } from "./support/apply-limits-suite";
import { defineCareersSuite } from "./support/careers-suite";

defineCareersSuite("next");
defineApplyLimitsSuite("next");
