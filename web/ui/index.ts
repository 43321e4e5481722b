/** The apps' component kit (the dashboard's and the till's). Import tokens.css once per app. */
export { Button } from "./Button.tsx";
export { ConfirmDialog } from "./ConfirmDialog.tsx";
export { Dialog } from "./Dialog.tsx";
export { Field, SelectField } from "./Field.tsx";
export { FormError } from "./FormError.tsx";
export { lazyPage } from "./Lazy.tsx";
export { Link } from "./Link.tsx";
export { Pager, type PagerProps, useCursorPages } from "./Pager.tsx";
export { SignIn } from "./SignIn.tsx";
export { type Column, Table } from "./Table.tsx";
export { Toasts, toast } from "./Toast.tsx";
export { WorldBadge } from "./WorldBadge.tsx";
