import type { Dispatcher } from 'undici';

/**
 * Passes each of undici's calls on to the handler it wraps (the one
 * undici's request() made), and says when undici hands the request to a
 * connection: onRequestStart, which undici calls just before it writes the
 * request. test/unit/undici-modules.test.ts checks that it passes on every
 * method that handler has.
 */
export class ConnectionWatch implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #onStart: () => void;

  constructor(handler: Dispatcher.DispatchHandler, onStart: () => void) {
    this.#handler = handler;
    this.#onStart = onStart;
  }

  onRequestStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>): void {
    this.#onStart();
    return this.#handler.onRequestStart?.(...args);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    return this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStarted(): void {
    return this.#handler.onResponseStarted?.();
  }

  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    return this.#handler.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>): void {
    return this.#handler.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    return this.#handler.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseError']>>): void {
    return this.#handler.onResponseError?.(...args);
  }

  onBodySent(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onBodySent']>>): void {
    return this.#handler.onBodySent?.(...args);
  }

  onRequestSent(): void {
    return this.#handler.onRequestSent?.();
  }
}
