import { useEffect, useState } from "preact/hooks";
import { currentPath, navigate } from "../lib/router.ts";
import { api, session, signOut } from "../lib/session.ts";
import { Button, Link, Toasts, toast, WorldBadge } from "../ui/index.ts";
import { catalogLoaded, SYNC_INTERVAL_MS, startCatalog, syncCatalog } from "./catalog/catalog.ts";
import { OutboxBadge, openSession, SignOutDialog, startOutbox, unsyncedSales } from "./offline/index.ts";
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
    openSession().catch(() => toast("The till could not reach the server.", "error"));
    return startScanning();
  }, []);
  const merchantId = session.value?.merchant.id;
  useEffect(() => {
    if (merchantId === undefined) return;
    const stopOutbox = startOutbox(merchantId);
    startCatalog(api, merchantId).catch(() => {
      // Offline with the browser's copy loaded, the till sells from it; only no catalog at all is news.
      if (!catalogLoaded.value) toast("The catalog could not be loaded. Scans ask the server.", "error");
    });
    // Changes made elsewhere (the dashboard, another till) arrive within a minute; a failed read waits for the next.
    const timer = setInterval(() => syncCatalog().catch(() => {}), SYNC_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      stopOutbox();
    };
  }, [merchantId]);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);
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
        <OutboxBadge />
        <Button onClick={() => (unsyncedSales.value > 0 ? setConfirmingSignOut(true) : void endSession())}>
          Sign out
        </Button>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen key={`${screen.path}:${active}`} />
      </main>
      <SignOutDialog
        open={confirmingSignOut}
        onSignOut={() => {
          setConfirmingSignOut(false);
          void endSession();
        }}
        onClose={() => setConfirmingSignOut(false)}
      />
      <Toasts />
    </div>
  );
}

async function endSession(): Promise<void> {
  clearCart();
  await signOut();
  navigate(BASE, { replace: true });
}
