/** Test helper: koa's callback returns a promise; node:http wants a void listener. */
import type { RequestListener } from "node:http";
import type Koa from "koa";

export const nodeListener = (app: Koa): RequestListener => {
  const callback = app.callback();
  return (req, res) => {
    void callback(req, res);
  };
};
