// A screen's level-1 heading: it takes the focus when the screen opens, so a screen reader starts
// reading the new screen there (docs/admin.md).
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function ScreenHeading(props: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {props.children}
    </h1>
  );
}
