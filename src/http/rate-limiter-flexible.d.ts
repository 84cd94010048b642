// Types of the three files of rate-limiter-flexible that http/limits.ts imports one by one (its
// index loads every store the package has: Redis, Mongo, MySQL, DynamoDB…); each file's
// `module.exports` is the class of the same name in the package's own types.
declare module "rate-limiter-flexible/lib/RateLimiterMemory.js" {
  import { RateLimiterMemory } from "rate-limiter-flexible";
  export = RateLimiterMemory;
}

declare module "rate-limiter-flexible/lib/RateLimiterPostgres.js" {
  import { RateLimiterPostgres } from "rate-limiter-flexible";
  export = RateLimiterPostgres;
}

declare module "rate-limiter-flexible/lib/RateLimiterRes.js" {
  import { RateLimiterRes } from "rate-limiter-flexible";
  export = RateLimiterRes;
}
