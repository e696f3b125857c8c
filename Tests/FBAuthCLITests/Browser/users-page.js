// Plays a user on the emulator's users page (fbauth-test-chromium's FBAUTH_CHROMIUM_SCRIPT):
// reads the list, searches, adds, edits, deletes, switches tenant and project, and reports
// what the page showed as JSON in <html data-report> for UsersPageTests to judge.
(async () => {
  const $ = (id) => document.getElementById(id);
  const loads = () => Number(document.body.dataset.loads || 0);
  const until = async (what, test, milliseconds = 15000) => {
    const end = Date.now() + milliseconds;
    while (Date.now() < end) {
      const value = test();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('timed out waiting for ' + what);
  };
  const afterLoad = async (what, act) => {
    const before = loads();
    act();
    await until(what, () => loads() > before);
  };
  const rowsShown = () => [...$('users').tBodies[0].rows].map((row) => [...row.cells].slice(0, 8).map((cell) => cell.textContent));
  const rowOf = (email) => [...$('users').tBodies[0].rows].find((row) => row.cells[1].textContent === email);
  const type = (name, value) => {
    const input = $('editor').elements.namedItem(name);
    if (input.type === 'checkbox') input.checked = value; else input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const search = (text) => { $('search').value = text; $('search').dispatchEvent(new Event('input', { bubbles: true })); };
  const choose = (id, value) => { $(id).value = value; $(id).dispatchEvent(new Event('change', { bubbles: true })); };
  const report = {};
  try {
    await until('the first list', () => loads() >= 1);
    report.projects = [...$('project').options].map((option) => option.value);
    report.tenants = [...$('tenant').options].map((option) => option.textContent);
    report.first = rowsShown();
    report.elementsInCells = $('users').tBodies[0].querySelectorAll('td > :not(button)').length;

    search('ALICE');
    report.searched = rowsShown().map((row) => row[1]);
    report.searchedCount = $('count').textContent;
    search('');

    $('add').click();
    type('email', 'bob@example.com');
    type('password', 'bob-password-1');
    type('displayName', 'Bob <b>');
    type('emailVerified', true);
    type('claims', '{"role": "admin"}');
    await afterLoad('the list after adding', () => $('save').click());
    report.afterAdd = { status: $('status').textContent, row: [...rowOf('bob@example.com').cells].slice(1, 8).map((cell) => cell.textContent),
                        editorHidden: $('editor').hidden };

    rowOf('alice@example.com').querySelector('button.edit').click();
    report.editorTitle = $('editor-title').textContent;
    type('claims', '[1, 2]');
    await afterLoad('the list after refused claims', () => $('save').click());
    report.refusedClaims = { status: $('status').textContent, error: $('status').className, editorHidden: $('editor').hidden };

    type('claims', '{"tier": 2}');
    type('disabled', true);
    type('password', 'alice-new-password');
    type('displayName', '');
    await afterLoad('the list after editing', () => $('save').click());
    report.afterEdit = { status: $('status').textContent, row: [...rowOf('alice@example.com').cells].slice(1, 8).map((cell) => cell.textContent) };

    const mallory = () => rowOf('mallory@example.com');
    mallory().querySelector('button.delete').click();
    report.askedToConfirm = mallory().querySelector('button.delete').textContent;
    await afterLoad('the list after deleting', () => mallory().querySelector('button.delete').click());
    report.afterDelete = { status: $('status').textContent, emails: rowsShown().map((row) => row[1]), count: $('count').textContent };

    await afterLoad('the tenant list', () => choose('tenant', [...$('tenant').options][1].value));
    report.tenantRows = rowsShown().map((row) => row.slice(1));
    report.tenantLocation = location.hash;

    await afterLoad('the other project', () => choose('project', report.projects[1]));
    report.otherProjectRows = rowsShown().map((row) => row.slice(1));
    report.otherProjectTenants = [...$('tenant').options].map((option) => option.textContent);
    report.title = document.title;
    document.documentElement.dataset.report = JSON.stringify(report);
    document.documentElement.dataset.fbauth = 'verified';
  } catch (error) {
    report.failure = error.message;
    document.documentElement.dataset.report = JSON.stringify(report);
    document.documentElement.dataset.fbauth = 'failed';
  }
})();
