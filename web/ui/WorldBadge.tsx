import type { WorldName } from "../lib/api.ts";

/** The world in use, unmistakable: TEST is loud (a striped banner colour), LIVE is plain. */
export function WorldBadge(props: { world: WorldName }) {
  return props.world === "test" ? (
    <span class="world-badge world-test">TEST</span>
  ) : (
    <span class="world-badge world-live">LIVE</span>
  );
}
