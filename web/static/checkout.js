// Hosted checkout page behaviour: countdown, following the payment, and reporting to a pos.js opener.
// No inline script: the page's CSP allows scripts from its own origin only.
(() => {
  const root = document.getElementById("checkout");
  if (!root) return;
  const paymentId = root.dataset.paymentId;
  const expiresAt = Date.parse(root.dataset.expiresAt);
  const successUrl = root.dataset.successUrl;
  const cancelUrl = root.dataset.cancelUrl;
  const countdown = document.getElementById("countdown");
  const state = document.getElementById("state");
  // pos.js passes its page's origin: results are posted to that origin only.
  const openerOrigin = (() => {
    const origin = new URLSearchParams(location.search).get("origin");
    try {
      return origin && window.opener && new URL(origin).origin === origin ? origin : null;
    } catch {
      return null;
    }
  })();
  let finished = false;

  function tell(message) {
    if (openerOrigin) {
      window.opener.postMessage(message, openerOrigin);
    }
  }

  function withPaymentId(url) {
    const target = new URL(url);
    target.searchParams.set("payment_id", paymentId);
    return target.toString();
  }

  function show(status) {
    root.dataset.status = status;
    if (status === "paid") {
      state.textContent = "Paid. Thank you!";
      finished = true;
      if (openerOrigin) {
        tell({ type: "pos:paid", payment_id: paymentId });
        window.close();
      } else if (successUrl) {
        location.assign(withPaymentId(successUrl));
      }
    } else if (status === "expired" || status === "failed") {
      state.textContent =
        status === "expired" ? "This payment code has expired." : "This payment could not be completed.";
      finished = true;
      tell({ type: "pos:cancel", reason: status });
    }
  }

  function tick() {
    const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
    countdown.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  async function follow() {
    if (finished) return;
    try {
      const response = await fetch(`/checkout/${encodeURIComponent(paymentId)}/status`, { cache: "no-store" });
      if (response.ok) {
        show((await response.json()).status);
      }
    } catch {
      // A missed poll is retried on the next tick.
    }
    if (!finished) setTimeout(follow, 2000);
  }

  document.getElementById("cancel").addEventListener("click", () => {
    finished = true;
    if (openerOrigin) {
      tell({ type: "pos:cancel", reason: "cancelled" });
      window.close();
    } else if (cancelUrl) {
      location.assign(withPaymentId(cancelUrl));
    } else {
      history.back();
    }
  });
  const simulate = document.getElementById("simulate");
  if (simulate) {
    simulate.addEventListener("click", async () => {
      const response = await fetch(`/checkout/${encodeURIComponent(paymentId)}/mockpay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (response.ok) show((await response.json()).status);
    });
  }

  tick();
  setInterval(tick, 1000);
  show(root.dataset.status);
  follow();
})();
