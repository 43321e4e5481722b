import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import type { WorldName } from "../lib/api.ts";
import { currentPath, navigate } from "../lib/router.ts";
import { liveAvailable, loadSession, session, setWorld, signOut, world } from "../lib/session.ts";
import { Button, Link, lazyPage, Toasts, toast, WorldBadge } from "../ui/index.ts";
import { HomePage } from "./pages/home.tsx";
import { PaymentDetailPage } from "./pages/payment-detail.tsx";
import { PaymentsPage } from "./pages/payments.tsx";
import { SalesPage } from "./pages/shop/sales.tsx";
import { ShiftDetailPage } from "./pages/shop/shift-detail.tsx";
import { ShiftsPage } from "./pages/shop/shifts.tsx";
import { SignInPage } from "./pages/sign-in.tsx";
import { BASE, paymentPath, salePath, shiftPath } from "./paths.ts";

export { BASE };

type PageEntry = { path: string; label: string; page: () => JSX.Element };

// The developers' pages are opened rarely, so they load on demand too (web/build.ts: the first load's budget).
const ApiKeysPage = lazyPage(async () => (await import("./pages/api-keys.tsx")).ApiKeysPage);
const WebhooksPage = lazyPage(async () => (await import("./pages/developers/webhooks/webhooks-page.tsx")).WebhooksPage);
const EventsPage = lazyPage(async () => (await import("./pages/developers/events.tsx")).EventsPage);

const DEVELOPER_PAGES: readonly PageEntry[] = [
  { path: `${BASE}/developers/api-keys`, label: "API keys", page: ApiKeysPage },
  { path: `${BASE}/developers/webhooks`, label: "Webhooks", page: WebhooksPage },
  { path: `${BASE}/developers/events`, label: "Events", page: EventsPage },
];

/** The catalog's page is its own chunk (web/build.ts): it is most of a page's worth of script. */
const ProductsPage = lazyPage(async () => (await import("./pages/shop/products/products-page.tsx")).ProductsPage);
// The shop's settings are set now and then: their own chunks too.
const ReceiptTaxPage = lazyPage(
  async () => (await import("./pages/shop/settings/receipt-tax-page.tsx")).ReceiptTaxPage,
);
const ExchangeRatesPage = lazyPage(
  async () => (await import("./pages/shop/settings/exchange-rates-page.tsx")).ExchangeRatesPage,
);

/** Settings (password, two-factor, sessions, audit log) is opened now and then: its own chunk too. */
const SettingsPage = lazyPage(async () => (await import("./pages/settings.tsx")).SettingsPage);

/** The sales reports are their own chunk too: tables, charts and downloads an owner opens now and then. */
const ReportsPage = lazyPage(async () => (await import("./pages/shop/reports/reports-page.tsx")).ReportsPage);

/** One sale, its tenders and returns: opened from the sales list, so its own chunk too. */
const SaleDetailPage = lazyPage<{ saleId: string }>(
  async () => (await import("./pages/shop/sale-detail.tsx")).SaleDetailPage,
);

// Money out and the ledger are looked at now and then (Home shows the balances): their own chunks too.
const BalancePage = lazyPage(async () => (await import("./pages/balance.tsx")).BalancePage);
const PayoutsPage = lazyPage(async () => (await import("./pages/payouts.tsx")).PayoutsPage);

// The shop's people and paired tills are set up once and changed rarely: their own chunks too.
const CashiersPage = lazyPage(async () => (await import("./pages/shop/cashiers.tsx")).CashiersPage);
const TillDevicesPage = lazyPage(async () => (await import("./pages/shop/devices.tsx")).TillDevicesPage);

/** The shop: what the tills record and sell, and the people and devices that work them (docs/shop.md). */
const SHOP_PAGES: readonly PageEntry[] = [
  { path: `${BASE}/products`, label: "Products", page: ProductsPage },
  { path: `${BASE}/sales`, label: "Sales", page: SalesPage },
  { path: `${BASE}/reports`, label: "Reports", page: ReportsPage },
  { path: `${BASE}/shifts`, label: "Shifts", page: ShiftsPage },
  { path: `${BASE}/cashiers`, label: "Cashiers", page: CashiersPage },
  { path: `${BASE}/till-devices`, label: "Till devices", page: TillDevicesPage },
  { path: `${BASE}/rate-of-the-day`, label: "Rate of the day", page: ExchangeRatesPage },
  { path: `${BASE}/receipt-and-tax`, label: "Receipt & tax", page: ReceiptTaxPage },
];

/** The navigation, in order: pages, and a group's pages under its name. */
const NAVIGATION: readonly (PageEntry | { group: string; pages: readonly PageEntry[] })[] = [
  { path: BASE, label: "Home", page: HomePage },
  { path: `${BASE}/payments`, label: "Payments", page: PaymentsPage },
  { path: `${BASE}/balance`, label: "Balance", page: BalancePage },
  { path: `${BASE}/payouts`, label: "Payouts", page: PayoutsPage },
  { group: "Shop", pages: SHOP_PAGES },
  { group: "Developers", pages: DEVELOPER_PAGES },
  { path: `${BASE}/settings`, label: "Settings", page: SettingsPage },
];

const PAGES: readonly PageEntry[] = NAVIGATION.flatMap((item) => ("group" in item ? item.pages : [item]));

/** Detail pages: a path prefix and the page for the object whose id follows it. */
const DETAIL_PAGES: readonly { prefix: string; page: (id: string) => JSX.Element }[] = [
  { prefix: paymentPath(""), page: (id) => <PaymentDetailPage paymentId={id} /> },
  { prefix: salePath(""), page: (id) => <SaleDetailPage saleId={id} /> },
  { prefix: shiftPath(""), page: (id) => <ShiftDetailPage shiftId={id} /> },
];

/** The page for a path: a listed page, an object's detail, or Home for anything else. */
function pageOf(path: string) {
  const detail = DETAIL_PAGES.find(({ prefix }) => path.startsWith(prefix) && path.length > prefix.length);
  if (detail !== undefined) {
    return { key: path, element: detail.page(decodeURIComponent(path.slice(detail.prefix.length))) };
  }
  const page = PAGES.find((candidate) => candidate.path === path) ?? { path: BASE, page: HomePage };
  const Page = page.page;
  return { key: page.path, element: <Page /> };
}

export function App() {
  useEffect(() => {
    loadSession().catch(() => toast("The dashboard could not reach the server.", "error"));
  }, []);
  if (session.value === undefined) {
    return <p class="loading">Loading…</p>;
  }
  if (session.value === null || session.value.kind === "till") {
    return (
      <>
        <SignInPage tillSession={session.value?.kind === "till"} />
        <Toasts />
      </>
    );
  }
  const active = world.value === "live" && liveAvailable.value ? "live" : "test";
  const page = pageOf(currentPath.value);
  return (
    <>
      {active === "test" ? <div class="test-banner">TEST mode: nothing here moves real money</div> : null}
      <TopBar active={active} merchantName={session.value.merchant.name} />
      <div class="layout">
        <Navigation />
        <main id="main" tabIndex={-1}>
          <Toasts />
          <div key={`${page.key}:${active}`}>{page.element}</div>
        </main>
      </div>
    </>
  );
}

/** The bar above every page: the merchant, the world shown and its switch, signing out. */
function TopBar({ active, merchantName }: { active: WorldName; merchantName: string }) {
  return (
    <header class="top">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <span class="brand">{merchantName}</span>
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
  );
}

/** The side navigation: NAVIGATION's pages, a group's pages listed under its name. */
function Navigation() {
  return (
    <nav aria-label="Dashboard">
      <ul>
        {NAVIGATION.map((item) =>
          "group" in item ? (
            <li key={item.group}>
              <span class="nav-group" id={`nav-${item.group}`}>
                {item.group}
              </span>
              <ul aria-labelledby={`nav-${item.group}`}>
                {item.pages.map((entry) => (
                  <li key={entry.path}>
                    <Link href={entry.path}>{entry.label}</Link>
                  </li>
                ))}
              </ul>
            </li>
          ) : (
            <li key={item.path}>
              <Link href={item.path}>{item.label}</Link>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
