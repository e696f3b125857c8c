// A test double of https://www.google.com/recaptcha/api.js (reCAPTCHA v2) for fbauth's tests:
// render() draws a placeholder and, as a person ticking the box would, calls back with a token
// that the fbauth stand-in accepts for the site key.
(function () {
  var query = new URLSearchParams(((document.currentScript && document.currentScript.src) || '').split('?')[1] || '');
  window.grecaptcha = {
    render: function (element, options) {
      var box = typeof element === 'string' ? document.getElementById(element) : element;
      box.textContent = '[reCAPTCHA v2 test double: ticked]';
      setTimeout(function () { options.callback('fbauth-stand-in-recaptcha-v2.' + options.sitekey); }, 0);
      return 0;
    }
  };
  var onload = query.get('onload');
  if (onload && window[onload]) setTimeout(function () { window[onload](); }, 0);
})();
