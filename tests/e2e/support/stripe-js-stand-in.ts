/**
 * A stand-in for Stripe.js (js.stripe.com cannot be reached from tests), served to the page through
 * `page.route`. It implements what @stripe/react-stripe-js and the early-access page call, and
 * talks to api.stripe.com (which the tests route to their fake Stripe API) the way Stripe.js does: confirming a
 * PaymentIntent with its client secret, then redirecting to the return address.
 */
export function stripeJsStandIn(): string {
  return `(() => {
  const API = 'https://api.stripe.com';
  function Stripe(publishableKey) {
    function makeElements(options) {
      const clientSecret = options && options.clientSecret;
      return {
        _clientSecret: clientSecret,
        create(type) {
          let container = null;
          const handlers = {};
          const element = {
            mount(target) {
              container = typeof target === 'string' ? document.querySelector(target) : target;
              container.innerHTML =
                '<div class="stripe-stand-in" data-testid="payment-element">' +
                '<label>Card number <input name="cardnumber" value="4242 4242 4242 4242"></label></div>';
              setTimeout(() => (handlers.ready || []).forEach((h) => h({ elementType: type })), 20);
            },
            on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element; },
            off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return element; },
            update() {},
            unmount() {},
            destroy() { if (container) container.innerHTML = ''; },
          };
          return element;
        },
        update() {},
        getElement() { return null; },
        async submit() { return {}; },
      };
    }
    return {
      elements: makeElements,
      createToken: async () => ({}),
      createPaymentMethod: async () => ({}),
      confirmCardPayment: async () => ({}),
      registerAppInfo() {},
      _registerWrapper() {},
      async confirmPayment({ elements, confirmParams }) {
        const secret = elements._clientSecret;
        const id = secret.split('_secret_')[0];
        const response = await fetch(API + '/v1/payment_intents/' + id + '/confirm', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer ' + publishableKey },
          body: 'client_secret=' + encodeURIComponent(secret),
        });
        const answer = await response.json();
        if (answer.error) return { error: answer.error };
        const url = new URL(confirmParams.return_url);
        url.searchParams.set('payment_intent', id);
        url.searchParams.set('payment_intent_client_secret', secret);
        url.searchParams.set('redirect_status', answer.status);
        window.location.assign(url.toString());
        return new Promise(() => {});
      },
      async retrievePaymentIntent(secret) {
        const id = secret.split('_secret_')[0];
        const response = await fetch(API + '/v1/payment_intents/' + id, {
          headers: { authorization: 'Bearer ' + publishableKey },
        });
        return { paymentIntent: await response.json() };
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;
}
