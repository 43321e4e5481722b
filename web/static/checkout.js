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
  const pending = document.getElementById("pending");
  const actions = document.getElementById("actions");
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

  // The code can no longer be paid: nothing to pay, simulate or cancel is left on the page.
  function ended() {
    finished = true;
    pending.hidden = true;
    if (actions) actions.hidden = true;
  }

  function show(status) {
    root.dataset.status = status;
    if (status !== "pending") ended();
    if (status === "paid") {
      state.textContent = "Paid. Thank you!";
      finished = true;
      if (openerOrigin) {
        tell({ type: "pos:paid", payment_id: paymentId });
        window.close();
      } else if (successUrl) {
        location.assign(withPaymentId(successUrl));
      }
    } else if (status === "expired" || status === "failed" || status === "cancelled") {
      state.textContent = {
        expired: "This payment code has expired.",
        failed: "This payment could not be completed.",
        cancelled: "This payment was cancelled.",
      }[status];
      tell({ type: "pos:cancel", reason: status });
    }
  }

  async function readStatus() {
    const response = await fetch(`/checkout/${encodeURIComponent(paymentId)}/status`, { cache: "no-store" });
    return response.ok ? (await response.json()).status : null;
  }

  function tick() {
    const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
    countdown.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  async function follow() {
    if (finished) return;
    try {
      const status = await readStatus();
      if (status) show(status);
    } catch {
      // A missed poll is retried on the next tick.
    }
    if (!finished) setTimeout(follow, 2000);
  }

  function leave() {
    if (openerOrigin) {
      tell({ type: "pos:cancel", reason: "cancelled" });
      window.close();
    } else if (cancelUrl) {
      location.assign(withPaymentId(cancelUrl));
    } else {
      history.back();
    }
  }

  // Cancel cancels the payment first (its code can no longer be paid), then leaves. Paid a moment
  // before: the payer sees it paid instead. The server unreachable: say so and stay.
  const cancel = document.getElementById("cancel");
  if (cancel) {
    cancel.addEventListener("click", async () => {
      cancel.disabled = true;
      try {
        const response = await fetch(`/checkout/${encodeURIComponent(paymentId)}/cancel`, { method: "POST" });
        const status = response.ok ? (await response.json()).status : await readStatus();
        if (status === "cancelled") {
          ended();
          state.textContent = "This payment was cancelled.";
          leave();
        } else if (status) {
          show(status);
        }
      } catch {
        state.textContent = "Could not cancel: check the connection and try again.";
      } finally {
        cancel.disabled = false;
      }
    });
  }
  const simulate = document.getElementById("simulate");
  if (simulate) {
    simulate.addEventListener("click", async () => {
      const response = await fetch(`/checkout/${encodeURIComponent(paymentId)}/mockpay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      // Refused (no longer payable): show the payment as it now stands rather than nothing.
      const status = response.ok ? (await response.json()).status : await readStatus();
      if (status) show(status);
    });
  }

  tick();
  setInterval(tick, 1000);
  show(root.dataset.status);
  follow();
})();
