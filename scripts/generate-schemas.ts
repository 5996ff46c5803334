/**
 * Writes schemas/booking.xsd and schemas/search.xsd from the type model and the operation
 * catalogue (src/schema/xsd.ts), with the embedded mock's default namespaces. Run after any change
 * to the type model (src/contract/model-table.ts, model.ts) or src/contract/catalogue.ts: `npm run
 * generate`. A test fails when the committed files and the generator disagree. The SOAP envelope
 * schemas in schemas/ are hand-written.
 * Also writes docs/cli.md's table of every run setting from their declarations (src/engine/run-settings-table.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_NAMESPACES, type NsKey } from '../src/contract/catalogue.js';
import { SCHEMA_FILES, generateXsd } from '../src/schema/xsd.js';
import { SETTINGS_TABLE_BEGIN, SETTINGS_TABLE_END, settingsMarkdown, withSection } from '../src/core/setting.js';
import { CONFIG_KEY_SETTINGS, RUN_SETTINGS } from '../src/engine/run-settings-table.js';

const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
for (const key of Object.keys(SCHEMA_FILES) as NsKey[]) {
  const file = dir + SCHEMA_FILES[key];
  writeFileSync(file, generateXsd(key, DEFAULT_NAMESPACES));
  console.log(`wrote ${file}`);
}

// docs/cli.md's table of every run setting, from the declarations (src/engine/run-settings-table.ts).
const cliDoc = fileURLToPath(new URL('../docs/cli.md', import.meta.url));
const text = readFileSync(cliDoc, 'utf8');
writeFileSync(
  cliDoc,
  withSection(text, SETTINGS_TABLE_BEGIN, SETTINGS_TABLE_END, settingsMarkdown(RUN_SETTINGS, CONFIG_KEY_SETTINGS)),
);
console.log(`wrote ${cliDoc} (its settings table)`);
