import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';

/** A symbol found in a file: a definition or a reference, its name, what it is (function, class, call, …) and its 1-based line. */
export interface SymbolTag {
  name: string;
  kind: 'def' | 'ref';
  type: string;
  line: number;
}

/** Files over this size are not parsed for symbols (generated or minified code; their words are still indexed). */
export const MAX_TAGGED_BYTES = 512 * 1024;
/** Most symbols kept of one file. */
const MAX_TAGS = 5000;
/** A parse or a query that runs longer than this gives up (a pathological file), leaving the file without symbols. */
const TIMEOUT_MICROS = 500_000;

interface Grammar {
  /** The package and the .wasm file in it. */
  wasm: [string, string];
  /** The tags queries shipped with grammars (package, file), read in order. */
  queries: [string, string][];
  /** Patterns of our own where the shipped queries leave out what a repo map needs (types, constants, imports). */
  extra: string;
}

const TS_EXTRA = `
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(class_declaration name: (type_identifier) @name) @definition.class
(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant))
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant))
(type_identifier) @name @reference.type
(import_specifier name: (identifier) @name) @reference.import
`;
const JS_EXTRA = `
(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant))
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name) @definition.constant))
(import_specifier name: (identifier) @name) @reference.import
`;

const GRAMMARS: Record<string, Grammar> = {
  typescript: {
    wasm: ['tree-sitter-typescript', 'tree-sitter-typescript.wasm'],
    queries: [
      ['tree-sitter-javascript', 'queries/tags.scm'],
      ['tree-sitter-typescript', 'queries/tags.scm'],
    ],
    extra: TS_EXTRA,
  },
  tsx: {
    wasm: ['tree-sitter-typescript', 'tree-sitter-tsx.wasm'],
    queries: [
      ['tree-sitter-javascript', 'queries/tags.scm'],
      ['tree-sitter-typescript', 'queries/tags.scm'],
    ],
    extra: `${TS_EXTRA}\n(jsx_opening_element name: (identifier) @name) @reference.call\n(jsx_self_closing_element name: (identifier) @name) @reference.call`,
  },
  javascript: {
    wasm: ['tree-sitter-javascript', 'tree-sitter-javascript.wasm'],
    queries: [['tree-sitter-javascript', 'queries/tags.scm']],
    extra: `${JS_EXTRA}\n(jsx_opening_element name: (identifier) @name) @reference.call\n(jsx_self_closing_element name: (identifier) @name) @reference.call`,
  },
  python: {
    wasm: ['tree-sitter-python', 'tree-sitter-python.wasm'],
    queries: [['tree-sitter-python', 'queries/tags.scm']],
    extra: `
(import_from_statement name: (dotted_name (identifier) @name)) @reference.import
(type (identifier) @name) @reference.type
`,
  },
  go: {
    wasm: ['tree-sitter-go', 'tree-sitter-go.wasm'],
    queries: [['tree-sitter-go', 'queries/tags.scm']],
    extra: '',
  },
  rust: {
    wasm: ['tree-sitter-rust', 'tree-sitter-rust.wasm'],
    queries: [['tree-sitter-rust', 'queries/tags.scm']],
    extra: `
(type_identifier) @name @reference.type
(use_declaration argument: (scoped_identifier name: (identifier) @name)) @reference.import
(use_list (identifier) @name) @reference.import
(const_item name: (identifier) @name) @definition.constant
`,
  },
  bash: {
    wasm: ['tree-sitter-bash', 'tree-sitter-bash.wasm'],
    queries: [],
    extra: `
(function_definition name: (word) @name) @definition.function
(command name: (command_name (word) @name)) @reference.call
`,
  },
};

const BY_EXTENSION: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.sh': 'bash',
  '.bash': 'bash',
};

/** Languages whose files name what they use from other files in imports (see rankDefinitions). */
export const IMPORTING = new Set(['typescript', 'tsx', 'javascript', 'python', 'rust']);

/** The grammar a file is parsed with, by its extension; null when no grammar is shipped for it. */
export function languageOf(path: string): string | null {
  return BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

interface Loaded {
  parser: Parser;
  query: Query;
}

/**
 * Finds the definitions and references in source files with tree-sitter grammars compiled to WASM (shipped
 * in their npm packages) and each grammar's tags query, plus patterns of our own. Grammars load once, on the
 * first `load()` of their language (or of all); `tags()` is synchronous after that. The index runs it in a worker
 * thread (see SymbolThread), whose WASM memory is handed back when the thread ends. A file that fails to parse, or has no grammar, has no symbols.
 */
export class SymbolTagger {
  readonly #languages = new Map<string, Loaded>();
  readonly #references: 'all' | 'linking';
  readonly #loading = new Map<string, Promise<void>>();
  #init: Promise<void> | null = null;

  /**
   * `references`: 'all' (the default) finds every reference the queries know; 'linking' only those the index keeps
   * (see SearchIndexStore.put): in a language that imports names, its imports, so the patterns of calls and types
   * are never matched there, which spares most of the query's time and garbage.
   */
  constructor(options: { references?: 'all' | 'linking' } = {}) {
    this.#references = options.references ?? 'all';
  }

  /**
   * Loads a grammar (once), or every grammar without `language`; resolves even when one fails, which then leaves
   * its files without symbols. A worker that tags a few changed files loads only their grammars.
   */
  async load(language?: string): Promise<void> {
    const names = language === undefined ? Object.keys(GRAMMARS) : GRAMMARS[language] ? [language] : [];
    await Promise.all(names.map((name) => this.#loadOne(name)));
  }

  #loadOne(name: string): Promise<void> {
    let loading = this.#loading.get(name);
    if (!loading) {
      loading = (async () => {
        const grammar = GRAMMARS[name]!;
        const require = createRequire(import.meta.url);
        const resolve = (pkg: string, file: string) => require.resolve(`${pkg}/${file}`);
        try {
          await (this.#init ??= Parser.init());
          const language = await Language.load(resolve(...grammar.wasm));
          const source = [...grammar.queries.map(([pkg, file]) => readFileSync(resolve(pkg, file), 'utf8')), grammar.extra].join('\n');
          const parser = new Parser();
          parser.setLanguage(language);
          const query = new Query(language, source);
          if (this.#references === 'linking' && IMPORTING.has(name)) {
            const unkept = query.captureNames.flatMap((capture, i) => (capture.startsWith('reference.') && capture !== 'reference.import' ? [i] : []));
            for (const [pattern, quantifiers] of query.captureQuantifiers.entries()) {
              if (unkept.some((i) => (quantifiers[i] ?? 0) !== 0)) query.disablePattern(pattern);
            }
          }
          this.#languages.set(name, { parser, query });
        } catch {
          // A grammar that does not load leaves its language's files without symbols; search still has their words.
        }
      })();
      this.#loading.set(name, loading);
    }
    return loading;
  }

  get loaded(): boolean {
    return this.#languages.size > 0;
  }

  /** The symbols of a file's text (definitions and references, in file order); none before `load()` or for an unknown language. */
  tags(path: string, text: string): SymbolTag[] {
    const language = languageOf(path);
    const loaded = language === null ? undefined : this.#languages.get(language);
    if (!loaded || text.length > MAX_TAGGED_BYTES) return [];
    let tree;
    try {
      const started = performance.now();
      tree = loaded.parser.parse(text, null, { progressCallback: () => performance.now() - started > TIMEOUT_MICROS / 1000 });
      if (!tree) return [];
      const tags: SymbolTag[] = [];
      const seen = new Set<string>();
      for (const match of loaded.query.matches(tree.rootNode, { timeoutMicros: TIMEOUT_MICROS })) {
        let name: string | undefined;
        let line = 0;
        let role: string | undefined;
        for (const capture of match.captures) {
          if (capture.name === 'name') {
            name = capture.node.text;
            line = capture.node.startPosition.row + 1;
          } else if (capture.name.startsWith('definition.') || capture.name.startsWith('reference.')) {
            role = capture.name;
          }
        }
        if (!name || !role || name.length > 200) continue;
        const kind = role.startsWith('definition.') ? 'def' : 'ref';
        const type = role.slice(role.indexOf('.') + 1);
        const key = `${kind}\0${name}\0${line}`;
        if (seen.has(key)) continue;
        seen.add(key);
        tags.push({ name, kind, type, line });
        if (tags.length >= MAX_TAGS) break;
      }
      // A name defined on a line is not also a reference there (a class's name is a type identifier too).
      const defined = new Set(tags.filter((t) => t.kind === 'def').map((t) => `${t.name}\0${t.line}`));
      return tags.filter((t) => t.kind === 'def' || !defined.has(`${t.name}\0${t.line}`)).sort((a, b) => a.line - b.line);
    } catch {
      return [];
    } finally {
      tree?.delete();
    }
  }
}
