/// The users page's HTML, script and style, served by the emulator itself: no Node, no CDN.
/// The HTML holds no value of any user or project; the script renders the API's answers with
/// `textContent` only, so whatever a user typed or a client stored shows as text.
enum UsersPageAssets {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Users · fbauth emulator</title>
        <link rel="stylesheet" href="/emulator/ui/users.css">
        <script src="/emulator/ui/users.js" defer></script>
        </head>
        <body>
        <header>
          <h1>Users</h1>
          <label>Project <select id="project"></select></label>
          <label>Tenant <select id="tenant"><option value="">(none)</option></select></label>
          <input id="search" type="search" placeholder="Search uid, email, name, phone" aria-label="Search">
          <button id="add" type="button">Add user</button>
          <button id="refresh" type="button">Refresh</button>
        </header>
        <p id="status" role="status"></p>
        <form id="editor" hidden>
          <h2 id="editor-title">Add user</h2>
          <label>Email <input name="email" type="email" autocomplete="off"></label>
          <label>Password <input name="password" type="password" autocomplete="new-password"></label>
          <label>Display name <input name="displayName" autocomplete="off"></label>
          <label>Phone number <input name="phoneNumber" autocomplete="off" placeholder="+15555550100"></label>
          <label class="check"><input name="emailVerified" type="checkbox"> Email verified</label>
          <label class="check"><input name="disabled" type="checkbox"> Disabled</label>
          <label>Custom claims (a JSON object) <textarea name="claims" rows="3" spellcheck="false" placeholder='{"role": "admin"}'></textarea></label>
          <div><button type="submit" id="save">Save</button> <button type="button" id="cancel">Cancel</button></div>
        </form>
        <table id="users">
          <thead><tr><th>User ID</th><th>Email</th><th>Display name</th><th>Phone</th><th>Providers</th><th>Email verified</th><th>Disabled</th><th>Custom claims</th><th></th></tr></thead>
          <tbody></tbody>
        </table>
        <p id="count"></p>
        </body>
        </html>

        """#

    static let style = #"""
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #202124; }
        header { display: flex; flex-wrap: wrap; gap: .75em; align-items: center; }
        h1 { font-size: 1.4em; margin: 0 1em 0 0; }
        #search { min-width: 18em; }
        #status { min-height: 1.4em; }
        #status.error { color: #b00020; }
        form { display: grid; gap: .5em; max-width: 32em; padding: 1em; border: 1px solid #dadce0; border-radius: 6px; margin-bottom: 1em; }
        form label { display: grid; gap: .2em; }
        form label.check { display: flex; gap: .5em; align-items: center; }
        h2 { font-size: 1.1em; margin: 0; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .35em .6em; border-bottom: 1px solid #e8eaed; vertical-align: top; }
        td { overflow-wrap: anywhere; }
        th { font-weight: 600; background: #f8f9fa; }
        td:last-child { white-space: nowrap; }
        button.delete.confirm { color: #fff; background: #b00020; }

        """#

    static let script = #"""
        'use strict';
        // The users page: everything goes through the Admin API with `Bearer owner`, as the
        // Emulator UI does, and every value is rendered with textContent.
        (() => {
          const api = '/identitytoolkit.googleapis.com';
          const mostUsersShown = 10000;
          const $ = (id) => document.getElementById(id);
          const field = (name) => $('editor').elements.namedItem(name);
          const enc = encodeURIComponent;
          const state = { project: '', tenant: '', users: [], more: false, editing: null, deleting: null, loads: 0 };

          function element(tag, text, attributes) {
            const node = document.createElement(tag);
            if (text !== undefined) node.textContent = text;
            for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
            return node;
          }

          function say(text, isError) {
            $('status').textContent = text;
            $('status').className = isError ? 'error' : '';
          }

          async function call(method, path, body) {
            const response = await fetch(api + path, {
              method,
              headers: { 'Authorization': 'Bearer owner', 'Content-Type': 'application/json' },
              body: body === undefined ? undefined : JSON.stringify(body),
            });
            const answer = await response.json().catch(() => ({}));
            if (!response.ok) throw new Error((answer.error && answer.error.message) || 'HTTP ' + response.status);
            return answer;
          }

          const users = () => '/v1/projects/' + enc(state.project) + (state.tenant ? '/tenants/' + enc(state.tenant) : '');

          function fromLocation() {
            const asked = new URLSearchParams(location.hash.slice(1));
            return { project: asked.get('project') || '', tenant: asked.get('tenant') || '' };
          }

          function toLocation() {
            const shown = new URLSearchParams({ project: state.project });
            if (state.tenant) shown.set('tenant', state.tenant);
            history.replaceState(null, '', '#' + shown);
          }

          async function loadProjects() {
            const response = await fetch('/emulator/ui/projects');
            if (!response.ok) throw new Error(await response.text());
            const projects = (await response.json()).projects;
            const asked = fromLocation();
            if (asked.project && !projects.includes(asked.project)) projects.push(asked.project);
            $('project').replaceChildren(...projects.map((project) => element('option', project, { value: project })));
            state.project = asked.project || projects[0];
            state.tenant = asked.tenant;
            $('project').value = state.project;
          }

          async function loadTenants() {
            const options = [element('option', '(none)', { value: '' })];
            let token = '';
            do {
              const page = await call('GET', '/v2/projects/' + enc(state.project) + '/tenants?pageSize=1000' + (token ? '&pageToken=' + enc(token) : ''));
              for (const tenant of page.tenants || []) {
                const id = String(tenant.name || '').split('/').pop();
                options.push(element('option', tenant.displayName ? id + ' · ' + tenant.displayName : id, { value: id }));
              }
              token = page.nextPageToken || '';
            } while (token);
            $('tenant').replaceChildren(...options);
            if (!options.some((option) => option.value === state.tenant)) state.tenant = '';
            $('tenant').value = state.tenant;
          }

          async function loadUsers() {
            const found = [];
            let token = '';
            do {
              const page = await call('GET', users() + '/accounts:batchGet?maxResults=1000' + (token ? '&nextPageToken=' + enc(token) : ''));
              found.push(...(page.users || []));
              token = page.nextPageToken || '';
            } while (token && found.length < mostUsersShown);
            state.users = found;
            state.more = !!token;
          }

          // As the console shows them: a user with no provider, email or phone is anonymous.
          const providers = (user) => (user.providerUserInfo || []).map((info) => info.providerId).join(', ')
            || (user.email || user.phoneNumber ? '' : 'anonymous');
          const matches = (user, query) => !query || [user.localId, user.email, user.displayName, user.phoneNumber]
            .some((value) => typeof value === 'string' && value.toLowerCase().includes(query));

          function render() {
            const query = $('search').value.trim().toLowerCase();
            const shown = state.users.filter((user) => matches(user, query));
            $('users').tBodies[0].replaceChildren(...shown.map((user) => {
              const row = element('tr', undefined, { 'data-uid': user.localId });
              for (const value of [user.localId, user.email || '', user.displayName || '', user.phoneNumber || '', providers(user),
                                   user.emailVerified ? 'yes' : 'no', user.disabled ? 'yes' : 'no', user.customAttributes || '']) {
                row.append(element('td', String(value)));
              }
              const edit = element('button', 'Edit', { type: 'button', class: 'edit' });
              edit.addEventListener('click', () => openEditor(user));
              const confirming = state.deleting === user.localId;
              const remove = element('button', confirming ? 'Confirm delete' : 'Delete', { type: 'button', class: confirming ? 'delete confirm' : 'delete' });
              remove.addEventListener('click', () => removeUser(user));
              const actions = element('td');
              actions.append(edit, ' ', remove);
              row.append(actions);
              return row;
            }));
            const total = state.users.length + (state.more ? '+' : '');
            $('count').textContent = (shown.length === state.users.length ? total : shown.length + ' of ' + total) + ' users'
              + (state.more ? ' (the first ' + mostUsersShown + ' are shown)' : '');
          }

          // After each load the body's data-loads counts up, which a test waits on.
          async function refresh() {
            try {
              await loadUsers();
            } catch (error) {
              state.users = [];
              state.more = false;
              say(error.message, true);
            }
            render();
            document.body.dataset.loads = String(++state.loads);
          }

          function openEditor(user) {
            state.editing = user;
            $('editor').reset();
            $('editor-title').textContent = user ? 'Edit ' + user.localId : 'Add user';
            field('password').placeholder = user ? 'unchanged' : '';
            if (user) {
              field('email').value = user.email || '';
              field('displayName').value = user.displayName || '';
              field('phoneNumber').value = user.phoneNumber || '';
              field('emailVerified').checked = !!user.emailVerified;
              field('disabled').checked = !!user.disabled;
              field('claims').value = user.customAttributes || '';
            }
            $('editor').hidden = false;
            field('email').focus();
          }

          // A claims object as the Admin API takes it (customAttributes, a JSON text), or an error.
          function claimsText() {
            const text = field('claims').value.trim();
            if (!text) return '{}';
            let claims;
            try { claims = JSON.parse(text); } catch (error) { throw new Error('Custom claims are not JSON: ' + error.message); }
            if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw new Error('Custom claims must be a JSON object.');
            return JSON.stringify(claims);
          }

          async function save(event) {
            event.preventDefault();
            const user = state.editing;
            const email = field('email').value.trim();
            const password = field('password').value;
            const displayName = field('displayName').value;
            const phoneNumber = field('phoneNumber').value.trim();
            try {
              const claims = claimsText();
              if (!user) {
                const body = { emailVerified: field('emailVerified').checked, disabled: field('disabled').checked };
                if (email) body.email = email;
                if (password) body.password = password;
                if (displayName) body.displayName = displayName;
                if (phoneNumber) body.phoneNumber = phoneNumber;
                const made = await call('POST', users() + '/accounts', body);
                if (claims !== '{}') await call('POST', users() + '/accounts:update', { localId: made.localId, customAttributes: claims });
                say('Added ' + made.localId + '.');
              } else {
                const body = { localId: user.localId, emailVerified: field('emailVerified').checked,
                               disableUser: field('disabled').checked, customAttributes: claims };
                const deleteAttribute = [];
                if (email && email !== (user.email || '')) body.email = email;
                if (password) body.password = password;
                if (displayName !== (user.displayName || '')) {
                  if (displayName) body.displayName = displayName; else deleteAttribute.push('DISPLAY_NAME');
                }
                if (phoneNumber !== (user.phoneNumber || '')) {
                  if (phoneNumber) body.phoneNumber = phoneNumber; else body.deleteProvider = ['phone'];
                }
                if (deleteAttribute.length) body.deleteAttribute = deleteAttribute;
                await call('POST', users() + '/accounts:update', body);
                say('Saved ' + user.localId + '.');
              }
              $('editor').hidden = true;
            } catch (error) {
              say(error.message, true);
            }
            await refresh();
          }

          // A first click asks, a second deletes: no dialog box, nothing done by one stray click.
          async function removeUser(user) {
            if (state.deleting !== user.localId) {
              state.deleting = user.localId;
              render();
              return;
            }
            state.deleting = null;
            try {
              await call('POST', users() + '/accounts:delete', { localId: user.localId });
              say('Deleted ' + user.localId + '.');
            } catch (error) {
              say(error.message, true);
            }
            await refresh();
          }

          async function showProject() {
            try { await loadTenants(); } catch (error) { say(error.message, true); }
            toLocation();
            await refresh();
          }

          async function start() {
            $('project').addEventListener('change', () => { state.project = $('project').value; state.tenant = ''; say(''); showProject(); });
            $('tenant').addEventListener('change', () => { state.tenant = $('tenant').value; say(''); toLocation(); refresh(); });
            $('search').addEventListener('input', render);
            $('add').addEventListener('click', () => openEditor(null));
            $('refresh').addEventListener('click', refresh);
            $('cancel').addEventListener('click', () => { $('editor').hidden = true; });
            $('editor').addEventListener('submit', save);
            try {
              await loadProjects();
            } catch (error) {
              say(error.message, true);
              return;
            }
            await showProject();
          }

          document.addEventListener('DOMContentLoaded', start);
        })();

        """#
}
