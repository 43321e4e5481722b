// POS.pay({checkoutUrl, onSuccess, onCancel}) and drop-in [data-pos-pay] buttons.
// The checkout opens in a popup and reports by postMessage, accepted from the checkout's origin only.
// On small touch screens, or when the popup is blocked, the page goes to the checkout instead (the
// payment's success_url then brings the payer back).
(() => {
  const isMobile = () =>
    window.matchMedia("(max-width: 640px)").matches || /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);

  function pay(options) {
    const checkoutUrl = new URL(options.checkoutUrl, location.href);
    const onSuccess = options.onSuccess || (() => {});
    const onCancel = options.onCancel || (() => {});
    if (isMobile()) {
      location.assign(checkoutUrl.toString());
      return;
    }
    const popupUrl = new URL(checkoutUrl);
    popupUrl.searchParams.set("origin", location.origin);
    const popup = window.open(popupUrl.toString(), "pos-checkout", "popup=yes,width=480,height=760");
    if (!popup) {
      location.assign(checkoutUrl.toString());
      return;
    }
    let settled = false;
    const finish = (callback, value) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onMessage);
      clearInterval(watch);
      callback(value);
    };
    function onMessage(event) {
      if (event.origin !== checkoutUrl.origin || event.source !== popup || !event.data) return;
      if (event.data.type === "pos:paid") finish(onSuccess, { payment_id: String(event.data.payment_id) });
      if (event.data.type === "pos:cancel") finish(onCancel, { reason: String(event.data.reason || "cancelled") });
    }
    window.addEventListener("message", onMessage);
    // Closed without a result: the payer gave up.
    const watch = setInterval(() => {
      if (popup.closed) setTimeout(() => finish(onCancel, { reason: "closed" }), 300);
    }, 400);
  }

  function withPaymentId(url, paymentId) {
    const target = new URL(url, location.href);
    target.searchParams.set("payment_id", paymentId);
    return target.toString();
  }

  async function onButtonClick(button) {
    let checkoutUrl = button.dataset.checkoutUrl;
    if (!checkoutUrl) {
      const response = await fetch(button.dataset.endpoint, { method: "POST", credentials: "same-origin" });
      if (!response.ok) throw new Error(`POS: ${button.dataset.endpoint} answered ${response.status}`);
      checkoutUrl = (await response.json()).checkout_url;
    }
    pay({
      checkoutUrl,
      onSuccess: ({ payment_id }) => {
        if (button.dataset.success) location.assign(withPaymentId(button.dataset.success, payment_id));
      },
      onCancel: () => {},
    });
  }

  function bind(root) {
    for (const button of root.querySelectorAll("[data-pos-pay]")) {
      if (button.dataset.posBound) continue;
      button.dataset.posBound = "true";
      button.addEventListener("click", (event) => {
        event.preventDefault();
        onButtonClick(button).catch((error) => console.error(error));
      });
    }
  }

  window.POS = { pay };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => bind(document));
  } else {
    bind(document);
  }
})();
