/** When a rolled credential (an API key, a webhook signing secret) stops working: the choices offered. */
export const OVERLAP_CHOICES = [
  { value: "0", label: "Now" },
  { value: "3600", label: "In 1 hour" },
  { value: "86400", label: "In 24 hours" },
  { value: "604800", label: "In 7 days" },
] as const;
