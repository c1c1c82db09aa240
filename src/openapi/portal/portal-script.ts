import { apiPath } from '../../config/api-prefix';
import { BEARER_SCHEME, DOCUMENT_PATH } from '../openapi.document';
import type { PortalMode } from './portal-mode';

/** What the browser script needs to know; serialised into it as JSON. */
export interface PortalScriptConfig {
  mode: PortalMode;
  documentUrl: string;
  tokenPath: string;
  scheme: string;
}

export function portalScriptConfig(mode: PortalMode): PortalScriptConfig {
  return { mode, documentUrl: DOCUMENT_PATH, tokenPath: apiPath('Token'), scheme: BEARER_SCHEME };
}

/**
 * The browser side of the portal (plain ES2017, no build step): starts Swagger UI with the
 * mode's options. In test-token mode a token issued by the form or by trying POST /Token is put
 * into the bearer authorization; in read-only mode only GET can be submitted.
 */
const SCRIPT_BODY = String.raw`
  var readOnly = PORTAL.mode === 'read-only';
  function isTokenResponse(res) {
    try {
      return new URL(res.url, window.location.href).pathname === PORTAL.tokenPath &&
        res.status === 200 && res.body && typeof res.body.token === 'string';
    } catch (e) {
      return false;
    }
  }
  // Authorize adds "Bearer " itself: a token pasted with its prefix would send the word twice.
  function withOnePrefix(headers) {
    var value = headers && headers.Authorization;
    if (typeof value !== 'string' || !/^Bearer\s/i.test(value)) return;
    headers.Authorization = 'Bearer ' + value.trim().replace(/^Bearer\s+/i, '').replace(/^Bearer\s+/i, '');
  }
  var ui = SwaggerUIBundle({
    url: PORTAL.documentUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    persistAuthorization: false,
    displayRequestDuration: true,
    supportedSubmitMethods: readOnly ? ['get'] : ['get', 'post'],
    requestInterceptor: function (req) {
      if (readOnly && String(req.method || 'GET').toUpperCase() !== 'GET') {
        throw new Error('The production portal only executes GET operations.');
      }
      withOnePrefix(req.headers);
      return req;
    },
    responseInterceptor: function (res) {
      if (!readOnly && isTokenResponse(res)) ui.preauthorizeApiKey(PORTAL.scheme, res.body.token);
      return res;
    }
  });
  window.ui = ui;

  var form = document.getElementById('test-token');
  if (readOnly || !form) return;
  var status = document.getElementById('test-token-status');
  var username = document.getElementById('test-token-username');
  var password = document.getElementById('test-token-password');
  function show(state, text) {
    status.setAttribute('data-state', state);
    status.textContent = text;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    show('pending', 'Requesting a test token...');
    fetch(PORTAL.tokenPath, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username: username.value, password: password.value }),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (response) {
      return response.json().then(function (body) {
        return { ok: response.ok, status: response.status, body: body };
      }, function () {
        return { ok: false, status: response.status, body: null };
      });
    }).then(function (result) {
      password.value = '';
      if (result.ok && result.body && typeof result.body.token === 'string') {
        ui.preauthorizeApiKey(PORTAL.scheme, result.body.token);
        show('ok', 'Authorized with a test token until ' + result.body.expiration +
          ' (UTC). Try the operations below.');
      } else {
        show('error', (result.body && result.body.detail) || ('The token request failed (' + result.status + ').'));
      }
    }, function () {
      show('error', 'The token request could not be sent.');
    });
  });
`;

export function renderPortalScript(mode: PortalMode): string {
  return (
    `(function () {\n  'use strict';\n  var PORTAL = ${JSON.stringify(portalScriptConfig(mode))};\n` +
    `  window.addEventListener('load', function () {${SCRIPT_BODY}  });\n})();\n`
  );
}
