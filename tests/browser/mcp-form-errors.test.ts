// The MCP server form says what is wrong where it is wrong: a field's problem shows, with the field named,
// when the user leaves the field (not while first typing, not only on Save), and Save stays off, saying
// which fields stop it, while anything is wrong.
import { afterEach, expect, test } from 'vitest';
import { type Amber, startAmber } from './harness.ts';
import { seriousViolations } from './axe-audit.ts';

let amber: Amber | null = null;
afterEach(async () => {
  await amber?.close();
  amber = null;
});

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 800 },
] as const) {
  test(`a field's problem shows when it is left, named, and Save is off with its reason until the form is right (${theme}, ${width} px)`, async () => {
    amber = await startAmber({ theme, viewport: { width, height: 800 } });
    const { page } = amber;
    await amber.open();
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-mcp').click();
    const section = page.getByTestId('settings-mcp');
    await section.getByTestId('mcp-add').click();
    const form = section.getByTestId('mcp-form');
    const save = form.getByTestId('mcp-form-save');
    const reason = form.getByTestId('mcp-form-save-reason');
    const errors = form.getByTestId('mcp-form-error');

    // An empty form: no error yet (nothing was touched), but Add is off and says why.
    await form.getByTestId('mcp-form-name').waitFor();
    expect(await errors.count()).toBe(0);
    expect(await save.getAttribute('aria-disabled')).toBe('true');
    expect(await reason.textContent()).toBe('Add is off until Name and Command are filled in correctly.');
    expect(await save.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));

    // Typing a bad name says nothing yet; leaving the field says what is wrong, naming the field.
    const name = form.getByTestId('mcp-form-name');
    await name.click();
    await page.keyboard.type('my server');
    expect(await errors.count()).toBe(0);
    await page.keyboard.press('Tab');
    const nameError = form.locator('[data-testid=mcp-form-error][data-field=name]');
    await expect.poll(() => nameError.textContent()).toBe('Name: A server name is 1-64 letters, digits, _ or -, with no __ and not ending in _.');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toBe(await nameError.getAttribute('id'));
    // The command was never left: its problem waits, though it keeps Save off.
    expect(await form.locator('[data-testid=mcp-form-error][data-field=command]').count()).toBe(0);

    // A field left empty says so too; a relative folder is named as the working folder.
    await form.getByTestId('mcp-form-command').focus();
    await form.getByTestId('mcp-form-cwd').focus();
    await expect
      .poll(() => form.locator('[data-testid=mcp-form-error][data-field=command]').textContent())
      .toMatch(/^Command: Enter the command that starts the server/);
    await page.keyboard.type('relative/folder');
    await form.getByTestId('mcp-form-timeout').focus();
    await expect
      .poll(() => form.locator('[data-testid=mcp-form-error][data-field=cwd]').textContent())
      .toMatch(/^Working folder: The working folder must be a full path/);
    expect(await reason.textContent()).toBe('Add is off until Name, Command and Working folder are filled in correctly.');
    expect(await seriousViolations(page, '[data-testid=mcp-form]')).toEqual([]);
    await amber.screenshot(`mcp-form-errors-${theme}-${width}`);

    // Pressing the Add that is off (it stays focusable, so the reason can be read) saves nothing.
    await save.click({ force: true });
    expect(amber.shell.app.sessions.getSetting('plugin.mcp.config')).toBeNull();

    // Fixed, each error goes as it is typed (the field was left once), and Add comes on.
    await name.fill('my-server');
    await expect.poll(() => nameError.count()).toBe(0);
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await form.getByTestId('mcp-form-command').fill('npx');
    await form.getByTestId('mcp-form-cwd').fill('');
    await expect.poll(() => errors.count()).toBe(0);
    expect(await save.getAttribute('aria-disabled')).toBeNull();
    expect(await reason.count()).toBe(0);
    // A bad timeout, once left, turns it off again, named as the call timeout.
    await form.getByTestId('mcp-form-timeout').fill('soon');
    await form.getByTestId('mcp-form-timeout').blur();
    await expect
      .poll(() => form.locator('[data-testid=mcp-form-error][data-field=timeoutSeconds]').textContent())
      .toBe('Call timeout: The call timeout is a whole number of seconds, from 1 to 3600.');
    expect(await save.getAttribute('aria-disabled')).toBe('true');
    expect(await reason.textContent()).toBe('Add is off until Call timeout is filled in correctly.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
