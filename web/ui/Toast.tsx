import { signal } from "@preact/signals";

type Toast = { id: number; message: string; tone: "info" | "error" };

const toasts = signal<readonly Toast[]>([]);
let nextId = 1;

/** Shows a short message for a few seconds, announced by screen readers (a polite live region). */
export function toast(message: string, tone: Toast["tone"] = "info"): void {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, message, tone }];
  setTimeout(() => {
    toasts.value = toasts.value.filter((item) => item.id !== id);
  }, 5000);
}

export function Toasts() {
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.value.map((item) => (
        <p key={item.id} class={`toast toast-${item.tone}`}>
          {item.message}
        </p>
      ))}
    </div>
  );
}
