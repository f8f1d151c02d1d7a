/**
 * A stand-in for Stripe.js (`https://js.stripe.com/endive/stripe.js`), which cannot be reached here
 * (docs/decisions.md#integrations: Stripe.js has no API-base override). Browser tests serve it at the network boundary:
 *
 * ```ts
 * await page.route('https://js.stripe.com/**', (route) =>
 *   route.fulfill({ contentType: 'application/javascript', body: STRIPE_JS_STUB }),
 * );
 * ```
 *
 * It is what `@stripe/stripe-js` 10.2.1 (`loadStripe`: `window.Stripe(key)`, `Stripe.version` checked against the
 * `endive` release train, `_registerWrapper`) and `@stripe/react-stripe-js` 7.0.1 (`<Elements>`: `isStripe` wants
 * `elements`, `createToken`, `createPaymentMethod`, `confirmCardPayment`; then `elements(options)`,
 * `elements.update`, `registerAppInfo`; `<CardElement>`: `elements.create(type, options)`, `element.mount(node)`,
 * `on`/`off` for its events, `update`, `destroy`) call. The card element is a real `<input>` (placeholder and label
 * 'Card number') in the mount node, firing `ready` after mount and `change` ({ complete, empty, error }) as the
 * user types. `createPaymentMethod` answers by the typed number with Stripe's test payment methods, which the
 * Stripe REST stand-in knows: 4242 4242 4242 4242 → `pm_card_visa`, 5555 5555 5555 4444 → `pm_card_mastercard`,
 * 4000 0000 0000 0002 → `pm_card_chargeDeclined`; any other number is 'Your card number is invalid.'.
 *
 * `window.__stripeStub` records the publishable keys, wrappers and payment methods created, for assertions.
 */
export const STRIPE_JS_STUB = String.raw`(function () {
  'use strict';
  var CARDS = {
    '4242424242424242': { id: 'pm_card_visa', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
    '5555555555554444': { id: 'pm_card_mastercard', brand: 'mastercard', last4: '4444', exp_month: 8, exp_year: 2031 },
    '4000000000000002': { id: 'pm_card_chargeDeclined', brand: 'visa', last4: '0002', exp_month: 10, exp_year: 2030 },
  };
  var record = { keys: [], wrappers: [], appInfo: [], paymentMethods: [], elements: [] };
  window.__stripeStub = record;

  function digitsOf(value) {
    return String(value || '').replace(/\D/g, '');
  }
  function luhn(number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var digit = Number(number.charAt(number.length - 1 - i));
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    return number.length > 0 && sum % 10 === 0;
  }
  function brandOf(number) {
    if (/^4/.test(number)) return 'visa';
    if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
    if (/^3[47]/.test(number)) return 'amex';
    return 'unknown';
  }
  var invalidNumber = { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' };
  function integrationError(message) {
    var error = new Error(message);
    error.name = 'IntegrationError';
    return error;
  }
  function later(callback) {
    setTimeout(callback, 0);
  }

  function createElement(group, type, options) {
    var listeners = {};
    var input = null;
    var mounted = false;
    var destroyed = false;
    var readyFired = false;
    var element;

    function emit(event, payload) {
      (listeners[event] || []).slice().forEach(function (entry) {
        entry.callback.call(element, payload);
        if (entry.once) element.off(event, entry.callback);
      });
    }
    function changeEvent() {
      var number = digitsOf(input ? input.value : '');
      var complete = number.length >= 16 && luhn(number);
      var error = number.length >= 16 && !complete ? invalidNumber : undefined;
      return {
        elementType: type,
        empty: number.length === 0,
        complete: complete,
        error: error,
        brand: brandOf(number),
        value: { postalCode: '' },
      };
    }
    function listen(event, callback, once) {
      if (typeof callback !== 'function') throw integrationError('A handler function is required for "' + event + '".');
      (listeners[event] = listeners[event] || []).push({ callback: callback, once: once });
      // A listener added after 'ready' (React attaches its handlers after mounting) still hears it, as it would
      // while the real element's iframe loads.
      if (event === 'ready' && readyFired) {
        later(function () {
          emit('ready', { elementType: type });
        });
      }
      return element;
    }

    element = {
      _componentName: type,
      _stubType: type,
      mount: function (target) {
        if (destroyed) throw integrationError('This Element has already been destroyed. Please create a new one.');
        if (mounted) throw integrationError('This Element is already mounted. Use unmount() to unmount the Element.');
        var node = typeof target === 'string' ? document.querySelector(target) : target;
        if (!node || !node.appendChild) throw integrationError('The selector you specified (' + target + ') applies to no DOM elements.');
        input = document.createElement('input');
        input.type = 'text';
        input.inputMode = 'numeric';
        input.autocomplete = 'cc-number';
        input.placeholder = 'Card number';
        input.setAttribute('aria-label', 'Card number');
        input.className = 'StripeElement-stub-input';
        input.style.cssText = 'font:inherit;color:inherit;width:100%;min-width:0;border:0;outline:none;background:transparent;padding:0;box-sizing:border-box;';
        if (options && options.disabled) input.disabled = true;
        input.addEventListener('input', function () {
          emit('change', changeEvent());
        });
        input.addEventListener('focus', function () {
          node.classList.add('StripeElement--focus');
          emit('focus', { elementType: type });
        });
        input.addEventListener('blur', function () {
          node.classList.remove('StripeElement--focus');
          emit('blur', { elementType: type });
        });
        input.addEventListener('keydown', function (event) {
          if (event.key === 'Escape') emit('escape', { elementType: type });
        });
        node.classList.add('StripeElement', 'StripeElement--empty');
        node.appendChild(input);
        mounted = true;
        later(function () {
          if (!mounted) return;
          readyFired = true;
          emit('ready', { elementType: type });
        });
      },
      unmount: function () {
        if (input && input.parentNode) input.parentNode.removeChild(input);
        input = null;
        mounted = false;
        readyFired = false;
      },
      destroy: function () {
        if (destroyed) throw integrationError('This Element has already been destroyed.');
        element.unmount();
        destroyed = true;
        listeners = {};
        if (group.created[type] === element) delete group.created[type];
      },
      on: function (event, callback) {
        return listen(event, callback, false);
      },
      once: function (event, callback) {
        return listen(event, callback, true);
      },
      off: function (event, callback) {
        if (!listeners[event]) return element;
        listeners[event] = callback
          ? listeners[event].filter(function (entry) {
              return entry.callback !== callback;
            })
          : [];
        return element;
      },
      update: function (next) {
        options = Object.assign({}, options, next);
        if (input) input.disabled = Boolean(options.disabled);
      },
      focus: function () {
        if (input) input.focus();
      },
      blur: function () {
        if (input) input.blur();
      },
      clear: function () {
        if (!input) return;
        input.value = '';
        emit('change', changeEvent());
      },
      _number: function () {
        return digitsOf(input ? input.value : '');
      },
      _isMounted: function () {
        return mounted;
      },
    };
    return element;
  }

  function createElements(options) {
    var group = { created: {}, options: Object.assign({}, options) };
    record.elements.push(group.options);
    return {
      create: function (type, elementOptions) {
        if (group.created[type]) throw integrationError('Can only create one Element of type ' + type + '.');
        var element = createElement(group, type, elementOptions || {});
        group.created[type] = element;
        return element;
      },
      // A type, or a react-stripe-js component (its __elementType), as Stripe.js accepts both.
      getElement: function (typeOrComponent) {
        var type = typeof typeOrComponent === 'string' ? typeOrComponent : typeOrComponent && typeOrComponent.__elementType;
        return group.created[type] || null;
      },
      update: function (next) {
        Object.assign(group.options, next);
      },
      fetchUpdates: function () {
        return Promise.resolve({});
      },
      submit: function () {
        return Promise.resolve({});
      },
    };
  }

  function paymentMethodOf(card) {
    if (!card || typeof card._number !== 'function') {
      return Promise.reject(integrationError('Invalid value for createPaymentMethod: card should be a card Element.'));
    }
    if (!card._isMounted()) {
      return Promise.reject(integrationError('We could not retrieve data from the specified Element. Please make sure the Element you are attempting to use is still mounted.'));
    }
    var known = CARDS[card._number()];
    if (!known) return Promise.resolve({ error: invalidNumber });
    var paymentMethod = {
      id: known.id,
      object: 'payment_method',
      type: 'card',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      customer: null,
      billing_details: { address: null, email: null, name: null, phone: null },
      card: { brand: known.brand, last4: known.last4, exp_month: known.exp_month, exp_year: known.exp_year, funding: 'credit', country: 'US' },
    };
    record.paymentMethods.push(known.id);
    return Promise.resolve({ paymentMethod: paymentMethod });
  }

  function Stripe(key, options) {
    if (typeof key !== 'string' || key.length === 0) throw integrationError('Please call Stripe() with your publishable key.');
    record.keys.push(key);
    return {
      _stubKey: key,
      _stubOptions: options || {},
      elements: createElements,
      createPaymentMethod: function (data) {
        if (!data || data.type !== 'card') {
          return Promise.reject(integrationError('The stub supports only createPaymentMethod({ type: "card", card }).'));
        }
        return paymentMethodOf(data.card);
      },
      createToken: function (card) {
        return paymentMethodOf(card).then(function (result) {
          if (result.error) return result;
          return { token: { id: 'tok_' + result.paymentMethod.card.brand, object: 'token', card: result.paymentMethod.card } };
        });
      },
      confirmCardPayment: function () {
        return Promise.resolve({ paymentIntent: { id: 'pi_stub', object: 'payment_intent', status: 'succeeded' } });
      },
      confirmCardSetup: function () {
        return Promise.resolve({ setupIntent: { id: 'seti_stub', object: 'setup_intent', status: 'succeeded' } });
      },
      retrievePaymentIntent: function () {
        return Promise.resolve({ paymentIntent: null });
      },
      registerAppInfo: function (info) {
        record.appInfo.push(info);
      },
      _registerWrapper: function (wrapper) {
        record.wrappers.push(wrapper);
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;
