// Building blocks of the `rebaked` report.

/** Sorts strings by UTF-16 code units, the order every list of slugs and addresses is given in. */
export const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The name under which a frame's baked output is reported (`baked_option`). */
export function bakedOptionName(frameId: string): string {
  return `svc_frame_${frameId}_baked`;
}
