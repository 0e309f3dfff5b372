/**
 * `@forgekit/jobs-bullmq`: forgekit's durable background jobs on BullMQ (Redis), behind the same
 * jobs port as the SQL store — `createForgekit({ store, jobs: bullmqJobs({ connection }) })`.
 */
export { bullmqJobs, type BullmqJobRepository, type BullmqJobsOptions } from "./repository.js";
export { redisRateLimiter, type RedisRateLimiter, type RedisRateLimiterOptions, type RedisUnavailablePolicy } from "./rate-limiter.js";
