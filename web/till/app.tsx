import { useEffect, useState } from "preact/hooks";
import type { WorldName } from "../lib/api.ts";
import { currentPath } from "../lib/router.ts";
import { session } from "../lib/session.ts";
import { Button, Link, lazyPage, Toasts, toast, WorldBadge } from "../ui/index.ts";
import { cashiers, currentCashier, loadCashiers, pinRequired, switchOut } from "./cashier/cashiers.ts";
import { ChangePinDialog, ManagerDialog } from "./cashier/manager-dialog.tsx";
import { PinScreen } from "./cashier/pin-screen.tsx";
import { catalogLoaded, SYNC_INTERVAL_MS, startCatalog, syncCatalog } from "./catalog/catalog.ts";
import { openDeviceSession, pairedDevice } from "./device/device.ts";
import { OutboxBadge, openSession, startOutbox } from "./offline/index.ts";
import { startScanning } from "./scan/scan-target.ts";
import { SellScreen } from "./sell/sell-screen.tsx";
import { Z_REPORT_PATH } from "./shift/paths.ts";
import { SignInScreen } from "./sign-in.tsx";
import { activeWorld } from "./world.ts";
import { WorldSwitch } from "./world-switch.tsx";

export const BASE = "/till";

// Selling is the till's work; the other screens are opened now and then (the drawer at a shift's ends,
// stock when goods arrive, Today with its returns, pairing once), so they are a chunk loaded when one
// is first opened (web/build.ts: the first load's budget). The service worker caches every chunk: they
// open offline.
const StockScreen = lazyPage(async () => (await import("./occasional-screens.ts")).StockScreen);
const TodayScreen = lazyPage(async () => (await import("./occasional-screens.ts")).TodayScreen);
const DrawerScreen = lazyPage(async () => (await import("./occasional-screens.ts")).DrawerScreen);
const DeviceScreen = lazyPage(async () => (await import("./occasional-screens.ts")).DeviceScreen);
const ZReport = lazyPage<{ shiftId: string }>(async () => (await import("./occasional-screens.ts")).ZReport);

const SCREENS = [
  { path: BASE, label: "Sell", screen: SellScreen },
  { path: `${BASE}/stock`, label: "Stock", screen: StockScreen },
  { path: `${BASE}/today`, label: "Today", screen: TodayScreen },
  { path: `${BASE}/drawer`, label: "Drawer", screen: DrawerScreen },
  { path: `${BASE}/device`, label: "This till", screen: DeviceScreen },
] as const;

export function App() {
  useTillSession();
  const [changingPin, setChangingPin] = useState(false);
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
  if (cashiers.value === undefined) {
    return <p class="loading">Loading…</p>;
  }
  if (pinRequired.value) {
    return (
      <>
        <PinScreen />
        <Toasts />
      </>
    );
  }
  if (currentPath.value.startsWith(Z_REPORT_PATH)) {
    return <ZReport shiftId={currentPath.value.slice(Z_REPORT_PATH.length)} />;
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
      <TillHeader active={active} onChangePin={() => setChangingPin(true)} />
      <Toasts />
      <main id="main" tabIndex={-1}>
        <Screen key={`${screen.path}:${active}`} />
      </main>
      <ManagerDialog />
      <ChangePinDialog open={changingPin} onClose={() => setChangingPin(false)} />
    </div>
  );
}

/**
 * What the till does while it is open: a session (the browser's, or the paired device's), the scanner,
 * and for a signed-in shop its outbox, its catalog kept in sync and its cashiers.
 */
function useTillSession() {
  useEffect(() => {
    openSession().catch(() => toast("The till could not reach the server.", "error"));
    return startScanning();
  }, []);
  const merchantId = session.value?.merchant.id;
  useEffect(() => {
    if (merchantId === undefined) return;
    const stopOutbox = startOutbox(merchantId);
    startCatalog(merchantId).catch(() => {
      // Offline with the browser's copy loaded, the till sells from it; only no catalog at all is news.
      if (!catalogLoaded.value) toast("The catalog could not be loaded. Scans ask the server.", "error");
    });
    // Changes made elsewhere (the dashboard, another till) arrive within a minute; a failed read waits for the next.
    const timer = setInterval(() => syncCatalog().catch(() => {}), SYNC_INTERVAL_MS);
    // Who may work this till: a shop with cashiers shows the PIN screen until one switches in.
    cashiers.value = undefined;
    loadCashiers().catch(() => toast("The cashiers could not be loaded.", "error"));
    return () => {
      clearInterval(timer);
      stopOutbox();
    };
  }, [merchantId]);
  // A paired till with no session (first load, the 12-hour end, a revoked session) opens one with
  // its device cookie; an unpaired device is forgotten there, and the sign-in screen stays.
  const signedOut = session.value === null;
  useEffect(() => {
    if (signedOut && pairedDevice.value !== undefined) {
      openDeviceSession().catch(() => toast("The till could not reach the server.", "error"));
    }
  }, [signedOut]);
}

/** The shop, the world, the screens' tabs, who is at the till, and what waits in the outbox. */
function TillHeader(props: { active: WorldName; onChangePin: () => void }) {
  const cashier = currentCashier.value;
  return (
    <header class="till-top">
      <span class="brand">{session.value?.merchant.name}</span>
      <WorldBadge world={props.active} />
      <nav aria-label="Till">
        {SCREENS.map((item) => (
          <Link key={item.path} href={item.path} class="till-tab">
            {item.label}
          </Link>
        ))}
      </nav>
      <WorldSwitch active={props.active} />
      {cashier === undefined ? null : (
        <>
          <span class="current-cashier">
            Cashier: <strong>{cashier.name}</strong>
          </span>
          <Button onClick={() => switchOut().catch((error: Error) => toast(error.message, "error"))}>
            Switch cashier
          </Button>
          <Button onClick={props.onChangePin}>Change my PIN</Button>
        </>
      )}
      <OutboxBadge />
    </header>
  );
}
