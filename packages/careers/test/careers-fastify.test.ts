import { defineCareersSuite } from "./support/careers-suite";

defineCareersSuite("fastify");
