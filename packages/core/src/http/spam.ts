/**
 * Spam and CAPTCHA for endpoints that take user content (spec "Errors", body shape 5; reference
 * §3.6). The host's SpamChecker port classifies the content; a flagged request becomes the `spam`
 * error, rendered as 400 `{"message":{"error":…}}` without a CAPTCHA service, or as 409 with
 * `needs_captcha_response`, `spam_log_id` and `captcha_site_key` when one is configured. The client
 * then repeats the request with `X-Service-Captcha-Response` and `X-Service-Spam-Log-Id`, which are
 * handed back to the checker to verify.
 */
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { SpamChecker, SpamCheckInput } from "../ports/host.js";
import type { HttpRequest } from "./types.js";

/** Retry headers (spec "Errors" 5). */
export const CAPTCHA_RESPONSE_HEADER = "x-service-captcha-response";
export const SPAM_LOG_ID_HEADER = "x-service-spam-log-id";

/** The CAPTCHA answer and spam log id a retried request carries (an unparseable log id is ignored). */
export function spamRetryFrom(req: Pick<HttpRequest, "headers">): Pick<SpamCheckInput, "captchaResponse" | "spamLogId"> {
  const retry: Pick<SpamCheckInput, "captchaResponse" | "spamLogId"> = {};
  const answer = req.headers[CAPTCHA_RESPONSE_HEADER];
  if (answer !== undefined && answer !== "") retry.captchaResponse = answer;
  const logId = req.headers[SPAM_LOG_ID_HEADER];
  if (logId !== undefined && /^\d+$/.test(logId)) retry.spamLogId = Number(logId);
  return retry;
}

/**
 * Asks the checker about `content` created by a request; `ok` when there is no checker or it lets
 * the content through, the `spam` error when it flags it. A checker that fails is an internal error.
 */
export function checkSpam(
  checker: SpamChecker | undefined,
  req: Pick<HttpRequest, "headers">,
  content: Pick<SpamCheckInput, "userId" | "target" | "text">,
): ResultAsync<void, ForgekitError> {
  if (checker === undefined) return okAsync(undefined);
  return ResultAsync.fromPromise(checker.check({ ...content, ...spamRetryFrom(req) }), (cause) => errors.internal(cause)).andThen((verdict) =>
    verdict.spam ? errAsync(errors.spam(verdict.message, verdict.captcha)) : okAsync(undefined),
  );
}
