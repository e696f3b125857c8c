/*
 * Test stand-in for Google's iframe library (https://apis.google.com/js/api.js), which the
 * Firebase JS SDK's popup flow and the Auth emulator's helper iframe load, and which a machine
 * without internet cannot reach. fbauth-test-chromium serves it for that address. It carries
 * the calls both sides make — context.open / register / send / ping / restyle and
 * getParentIframe — as request/response messages over postMessage.
 */
(function () {
  'use strict';
  var TAG = '__fbauthGapiStandIn';
  var counter = 0;
  var channels = [];

  function Channel(peer) {
    this.peer = peer;
    this.handlers = {};
    this.waiting = {};
    this.early = [];
  }
  Channel.prototype.post = function (message) {
    message[TAG] = true;
    var target = this.peer();
    if (target) target.postMessage(message, '*');
  };
  Channel.prototype.register = function (type, handler) {
    this.handlers[type] = handler;
    var early = this.early;
    this.early = [];
    early.forEach(this.answer, this);
  };
  Channel.prototype.answer = function (request) {
    if (request.type === '__ping') { this.post({reply: request.id, data: [true]}); return; }
    var handler = this.handlers[request.type];
    if (!handler) { this.early.push(request); return; }
    var self = this;
    Promise.resolve().then(function () { return handler(request.data); }).then(
      function (result) { self.post({reply: request.id, data: [result]}); },
      function () { self.post({reply: request.id, data: []}); });
  };
  Channel.prototype.send = function (type, data, callback) {
    var id = 'm' + (++counter) + '-' + Math.random();
    var self = this;
    return new Promise(function (resolve) {
      self.waiting[id] = function (results) {
        try { if (callback) callback(results); } catch (e) { setTimeout(function () { throw e; }); }
        resolve(results);
      };
      self.post({request: id, type: type, data: data});
    });
  };
  Channel.prototype.receive = function (message) {
    if (message.request) { this.answer({id: message.request, type: message.type, data: message.data}); return; }
    var done = this.waiting[message.reply];
    if (done) { delete this.waiting[message.reply]; done(message.data); }
  };

  function Frame(element) {
    this.channel = new Channel(function () { return element.contentWindow; });
    this.channel.element = element;
    channels.push(this.channel);
  }
  Frame.prototype.register = function (type, handler) { this.channel.register(type, handler); };
  Frame.prototype.send = function (type, data, callback) { return this.channel.send(type, data, callback); };
  Frame.prototype.restyle = function (style, callback) { if (callback) callback(); return Promise.resolve([]); };
  Frame.prototype.ping = function (callback) {
    var channel = this.channel;
    return new Promise(function (resolve) {
      var answered = false;
      function attempt() {
        if (answered) return;
        channel.send('__ping', {}).then(function (result) {
          if (answered) return;
          answered = true;
          clearInterval(timer);
          if (callback) callback();
          resolve(result);
        });
      }
      var timer = setInterval(attempt, 100);
      attempt();
    });
  };

  var parentChannel = window.parent !== window ? new Channel(function () { return window.parent; }) : null;
  window.addEventListener('message', function (event) {
    var message = event.data;
    if (!message || typeof message !== 'object' || !message[TAG]) return;
    if (parentChannel && event.source === window.parent) { parentChannel.receive(message); return; }
    for (var i = 0; i < channels.length; i++) {
      if (channels[i].element.contentWindow === event.source) { channels[i].receive(message); return; }
    }
  });

  var context = {
    open: function (options, callback) {
      var element = document.createElement('iframe');
      var attributes = options.attributes || {};
      Object.keys(attributes).forEach(function (name) {
        if (name === 'style') Object.assign(element.style, attributes.style);
        else element.setAttribute(name, attributes[name]);
      });
      element.src = options.url;
      (options.where || document.body).appendChild(element);
      var frame = new Frame(element);
      return Promise.resolve(callback ? callback(frame) : frame);
    },
    getParentIframe: function () {
      if (!parentChannel) return null;
      return {
        register: function (type, handler) { parentChannel.register(type, handler); },
        send: function (type, data, callback) { return parentChannel.send(type, data, callback); }
      };
    }
  };

  var gapi = window.gapi = window.gapi || {};
  gapi.iframes = {CROSS_ORIGIN_IFRAMES_FILTER: function () { return true; }, getContext: function () { return context; }};
  gapi.load = function (features, options) {
    var callback = typeof options === 'function' ? options : options && options.callback;
    setTimeout(function () { if (callback) callback(); }, 0);
  };
  var script = document.currentScript;
  var onload = /[?&]onload=([^&#]+)/.exec((script && script.src) || '');
  setTimeout(function () {
    if (onload && typeof window[onload[1]] === 'function') window[onload[1]]();
    if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
