import compression from "compression";
import type { NextFunction, Request, Response } from "express";

type Listener = (...args: unknown[]) => void;

/**
 * `compression()` with its "drain" listeners kept removable.
 *
 * compression forwards `res.on("drain")` to its Brotli/gzip stream but not
 * `res.off("drain")`; React Router's node adapter waits for every backpressured
 * chunk with `once("drain")` and then `off`, so each wait left a listener on
 * the stream for the rest of the response (MaxListenersExceededWarning on
 * large pages). Here one listener is registered through compression and
 * dispatches to a set this module owns, so removal works again.
 */
export function compressResponses() {
  const compress = compression();
  return (req: Request, res: Response, next: NextFunction) => {
    compress(req, res, (error?: unknown) => {
      if (error) return next(error);
      keepDrainListenersRemovable(res);
      next();
    });
  };
}

function keepDrainListenersRemovable(res: Response) {
  const forwardOn = res.on;
  const plainRemove = res.removeListener;
  const drainListeners = new Set<Listener>();
  let forwarding = false;

  const on = function (this: Response, type: string | symbol, listener: Listener) {
    if (type !== "drain") return forwardOn.call(this, type, listener);
    drainListeners.add(listener);
    if (!forwarding) {
      forwarding = true;
      forwardOn.call(this, "drain", () => {
        for (const l of [...drainListeners]) l.call(res);
      });
    }
    return this;
  };
  const remove = function (this: Response, type: string | symbol, listener: Listener) {
    if (type !== "drain") return plainRemove.call(this, type, listener);
    for (const l of drainListeners) {
      // `once` registers a wrapper that carries the original as `.listener`.
      if (l === listener || (l as Listener & { listener?: Listener }).listener === listener) {
        drainListeners.delete(l);
        break;
      }
    }
    return this;
  };
  res.on = on as Response["on"];
  res.addListener = on as Response["addListener"];
  res.removeListener = remove as Response["removeListener"];
  res.off = remove as Response["off"];
}
