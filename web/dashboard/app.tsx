import { useEffect } from "preact/hooks";
import { currentPath, navigate } from "../lib/router.ts";
import { liveAvailable, loadSession, session, setWorld, signOut, world } from "../lib/session.ts";
import { Button, Link, Toasts, toast, WorldBadge } from "../ui/index.ts";
import { ApiKeysPage } from "./pages/api-keys.tsx";
import { HomePage } from "./pages/home.tsx";
import { PaymentsPage } from "./pages/payments.tsx";
import { SettingsPage } from "./pages/settings.tsx";
import { SignInPage } from "./pages/sign-in.tsx";

export const BASE = "/dashboard";

const PAGES = [
  { path: BASE, label: "Home", page: HomePage },
  { path: `${BASE}/payments`, label: "Payments", page: PaymentsPage },
  { path: `${BASE}/developers/api-keys`, label: "API keys", page: ApiKeysPage },
  { path: `${BASE}/settings`, label: "Settings", page: SettingsPage },
] as const;

export function App() {
  useEffect(() => {
    loadSession().catch(() => toast("The dashboard could not reach the server.", "error"));
  }, []);
  if (session.value === undefined) {
    return <p class="loading">Loading…</p>;
  }
  if (session.value === null) {
    return (
      <>
        <SignInPage />
        <Toasts />
      </>
    );
  }
  const active = world.value === "live" && liveAvailable.value ? "live" : "test";
  const page = PAGES.find((candidate) => candidate.path === currentPath.value) ?? PAGES[0];
  const Page = page.page;
  return (
    <>
      {active === "test" ? <div class="test-banner">TEST mode: nothing here moves real money</div> : null}
      <header class="top">
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <span class="brand">{session.value.merchant.name}</span>
        <WorldBadge world={active} />
        <fieldset class="world-switch">
          <legend class="visually-hidden">World</legend>
          <Button
            variant={active === "test" ? "primary" : "secondary"}
            aria-pressed={active === "test"}
            onClick={() => setWorld("test")}
          >
            Test
          </Button>
          <Button
            variant={active === "live" ? "primary" : "secondary"}
            aria-pressed={active === "live"}
            disabled={!liveAvailable.value}
            title={liveAvailable.value ? undefined : "LIVE opens once the account is active"}
            onClick={() => setWorld("live")}
          >
            Live
          </Button>
        </fieldset>
        <Button
          onClick={async () => {
            await signOut();
            navigate(BASE, { replace: true });
          }}
        >
          Sign out
        </Button>
      </header>
      <div class="layout">
        <nav aria-label="Dashboard">
          <ul>
            {PAGES.map((item) => (
              <li key={item.path}>
                <Link href={item.path}>{item.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Page key={`${page.path}:${active}`} />
        </main>
      </div>
      <Toasts />
    </>
  );
}
