import type { ComponentChildren } from "preact";
import { currentPath, navigate } from "../lib/router.ts";

/** An in-app link: a real <a href> (opens in a new tab, keyboard-usable) that navigates without a reload. */
export function Link(props: { href: string; children: ComponentChildren; class?: string }) {
  const current = currentPath.value === props.href;
  return (
    <a
      href={props.href}
      class={props.class}
      aria-current={current ? "page" : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
