/**
 * Users' activity days (reference `Users::ActivityService`): an authenticated API request that the
 * route served, or a git-over-HTTP request a user was let through, sets the user's
 * `lastActivityOn` to today (UTC, from the instance's clock). The reference writes at most once a
 * day per user (`return if user.last_activity_on == Date.today`, then a one-minute Redis lease);
 * here the same two checks stay in the process: the day the request's user row already holds, and
 * a bounded set of the users this process has written today. The write itself is one conditional
 * statement (`users.recordActivity`) that never moves the day back, so several processes at worst
 * write a user's day once each.
 *
 * The write never delays or fails a request: it starts when the request is done with (nothing
 * awaits it), and a failure is logged and forgotten, so a later request of the same day tries again.
 */
import type { ForgekitConfig } from "../config.js";
import { describeCause } from "../http/render-error.js";
import type { User } from "./types.js";

/** How many users' writes of the day a process remembers before it forgets the oldest. */
export const DEFAULT_ACTIVITY_MEMORY = 10_000;

/** Records users' activity days; shared by the API pipeline and git over HTTP of one instance. */
export interface UserActivityRecorder {
  /**
   * Notes that `user` was active now. Writes the day unless the user's row (as the request read
   * it) or this process already has it; never throws and never waits for the write.
   */
  record(user: Pick<User, "id" | "lastActivityOn">): void;
  /** Resolves once every write started so far has finished (tests, orderly shutdown). */
  settled(): Promise<void>;
}

/** Options of {@link userActivityRecorder}. */
export interface UserActivityOptions {
  /** Users remembered as written today, at most (default {@link DEFAULT_ACTIVITY_MEMORY}). */
  memory?: number;
}

/** The UTC calendar day of `at`, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Builds the recorder of an instance. */
export function userActivityRecorder(config: Pick<ForgekitConfig, "store" | "clock" | "logger">, options: UserActivityOptions = {}): UserActivityRecorder {
  const memory = Math.max(1, options.memory ?? DEFAULT_ACTIVITY_MEMORY);
  /** Users written (or being written) on `day`; emptied when the day turns, so it never outgrows `memory`. */
  const written = new Set<number>();
  let day = "";
  const pending = new Set<Promise<void>>();

  function failed(userId: number, cause: unknown): void {
    try {
      config.logger.log("warn", "user_activity.record_failed", { userId, ...describeCause(cause) });
    } catch {
      // A failing logger must not turn a skipped write into an unhandled rejection.
    }
  }

  async function write(userId: number, today: string): Promise<void> {
    try {
      await config.store.users.recordActivity(userId, today);
    } catch (cause) {
      // Forget the user so that a later request retries; the request itself went on unharmed.
      if (day === today) written.delete(userId);
      failed(userId, cause);
    }
  }

  return {
    record(user) {
      try {
        const today = utcDay(config.clock.now());
        if (user.lastActivityOn !== null && user.lastActivityOn >= today) return;
        if (today !== day) {
          written.clear();
          day = today;
        }
        if (written.has(user.id)) return;
        if (written.size >= memory) {
          // The oldest entry goes (a Set iterates in insertion order): at worst that user's next
          // request writes again, a conditional statement that then changes nothing.
          const oldest = written.values().next();
          if (oldest.done !== true) written.delete(oldest.value);
        }
        written.add(user.id);
        const task = write(user.id, today);
        pending.add(task);
        void task.finally(() => pending.delete(task));
      } catch (cause) {
        // A throwing clock: the activity day is bookkeeping, never a reason to fail a request.
        failed(user.id, cause);
      }
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
