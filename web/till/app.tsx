import { useEffect } from "preact/hooks";
import { currentPath, navigate } from "../lib/router.ts";
import { api, loadSession, session, signOut } from "../lib/session.ts";
import { Button, Link, Toasts, toast, WorldBadge } from "../ui/index.ts";
import { SYNC_INTERVAL_MS, startCatalog, syncCatalog } from "./catalog/catalog.ts";
import { startScanning } from "./scan/scan-target.ts";
import { clearCart } from "./sell/cart.ts";
import { SellScreen } from "./sell/sell-screen.tsx";
import { SignInScreen } from "./sign-in.tsx";
import { StockScreen } from "./stock/stock-screen.tsx";
import { TodayScreen } from "./today/today-screen.tsx";
import { activeWorld } from "./world.ts";
import { WorldSwitch } from "./world-switch.tsx";

export const BASE = "/till";

const SCREENS = [
  { path: BASE, label: "Sell", screen: SellScreen },
  { path: `${BASE}/stock`, label: "Stock", screen: StockScreen },
  { path: `${BASE}/today`, label: "Today", screen: TodayScreen },
] as const;

export function App() {
  useEffect(() => {
    loadSession().catch(() => toast("The till could not reach the server.", "error"));
    return startScanning();
  }, []);
  const merchantId = session.value?.merchant.id;
  useEffect(() => {
    if (merchantId === undefined) return;
    startCatalog(api, merchantId).catch(() => toast("The catalog could not be loaded. Scans ask the server.", "error"));
    // Changes made elsewhere (the dashboard, another till) arrive within a minute; a failed read waits for the next.
    const timer = setInterval(() => syncCatalog().catch(() => {}), SYNC_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [merchantId]);
  if (session.value === undefined) {
    return <p class="loading">Loading…</p>;
  }
  if (session.value === null) {
    return (
      <>
        <SignInScreen />
        <Toasts />
      </>
    );
  }
  const active = activeWorld();
  const screen = SCREENS.find((candidate) => candidate.path === currentPath.value) ?? SCREENS[0];
  const Screen = screen.screen;
  return (
    <div class={`till world-${active}-frame`}>
      {active === "test" ? (
        <div class="test-banner" role="note">
          TEST — practice sales: no real money, stock unchanged
        </div>
      ) : null}
      <header class="till-top">
        <span class="brand">{session.value.merchant.name}</span>
        <WorldBadge world={active} />
        <nav aria-label="Till">
          {SCREENS.map((item) => (
            <Link key={item.path} href={item.path} class="till-tab">
              {item.label}
            </Link>
          ))}
        </nav>
        <WorldSwitch active={active} />
        <Button
          onClick={async () => {
            clearCart();
            await signOut();
            navigate(BASE, { replace: true });
          }}
        >
          Sign out
        </Button>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen key={`${screen.path}:${active}`} />
      </main>
      <Toasts />
    </div>
  );
}
