import type { ButtonHTMLAttributes, ComponentChildren } from "preact";

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "class"> & {
  variant?: "primary" | "secondary" | "danger";
  busy?: boolean;
  children: ComponentChildren;
};

/** A button; `busy` disables it and says so to assistive technology while its action runs. */
export function Button({
  variant = "secondary",
  busy = false,
  type = "button",
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button {...rest} type={type} class={`button button-${variant}`} disabled={disabled || busy} aria-busy={busy}>
      {children}
    </button>
  );
}
