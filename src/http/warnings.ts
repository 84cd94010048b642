// Whatever the service did differently from the request is reported, not refused (spec, Errors).
// Services collect warnings in a list and the route puts it on the success body as `warnings`.

export interface Warning {
  code: string;
  message: string;
  [detail: string]: unknown;
}

export function warning(code: string, message: string, details: Record<string, unknown> = {}): Warning {
  return { code, message, ...details };
}
