/** Building blocks the entity schemas share: formats, the user summary, and the compile-time renderer check. */
import * as z from "zod";

export const timestamp = z.string().meta({ format: "date-time" });
export const date = z.string().meta({ format: "date" });
export const url = z.string().meta({ format: "uri" });
export const int = z.number().int();

export const userBasicSchema = z
  .object({
    id: int,
    username: z.string(),
    name: z.string(),
    state: z.enum(["active", "blocked", "deactivated"]),
    locked: z.boolean(),
    avatar_url: url.nullable(),
    web_url: url,
  })
  .meta({ description: "User summary (spec: embedded as `author`)" });

export const timeStatsSchema = z.object({ time_estimate: int, total_time_spent: int, human_time_estimate: z.string().nullable(), human_total_time_spent: z.string().nullable() });

/** Keys of every member of a union (a renderer with conditional spreads returns one). */
type AllKeys<T> = T extends unknown ? keyof T : never;
/** The values a key takes across a union's members. */
type ValueAt<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/**
 * `true` when schema S and renderer output R have the same keys, R fits S, and each of S's value
 * types (undefined aside) is one R produces.
 */
export type Same<S, R> = [AllKeys<S>] extends [AllKeys<R>]
  ? [AllKeys<R>] extends [AllKeys<S>]
    ? [R] extends [S]
      ? { [K in keyof S]-?: [Exclude<S[K], undefined>] extends [ValueAt<R, K>] ? true : false }[keyof S] extends true
        ? true
        : false
      : false
    : false
  : false;
/** `R` (a renderer's return type) has exactly the keys of schema `S` and fits it. */
export type Fits<S extends z.ZodType, R> = [R] extends [z.output<S>] ? ([AllKeys<R>] extends [AllKeys<z.output<S>>] ? true : false) : false;
/**
 * `R` has exactly the keys of schema `S` (values unchecked): for renderers whose return type widens
 * literals the schema names (e.g. `"regular" | "any_approver"` typed as `string`).
 */
export type SameKeys<S extends z.ZodType, R> = [AllKeys<R>] extends [AllKeys<z.output<S>>] ? ([AllKeys<z.output<S>>] extends [AllKeys<R>] ? true : false) : false;
export type Holds<T extends true> = T;
