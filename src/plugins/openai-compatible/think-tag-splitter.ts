export interface ContentPiece {
  kind: 'text' | 'thinking';
  text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Some local models (served by Ollama, LM Studio, llama.cpp, vLLM without a reasoning parser) put their
 * reasoning inside the content as `<think>…</think>` at the very start of the reply. This splits it out as
 * thinking, across any chunk boundaries; content that does not start with the tag passes through as text.
 */
export class ThinkTagSplitter {
  private mode: 'start' | 'inside' | 'text' = 'start';
  private pending = '';
  private trimLeading = false;

  push(chunk: string): ContentPiece[] {
    if (this.mode === 'text') return this.text(chunk);
    this.pending += chunk;
    if (this.mode === 'start') {
      const head = this.pending.trimStart();
      if (OPEN.startsWith(head)) return [];
      if (!head.startsWith(OPEN)) {
        this.mode = 'text';
        const all = this.pending;
        this.pending = '';
        return this.text(all);
      }
      this.mode = 'inside';
      this.pending = head.slice(OPEN.length);
    }
    const end = this.pending.indexOf(CLOSE);
    if (end >= 0) {
      const thinking = this.pending.slice(0, end);
      const rest = this.pending.slice(end + CLOSE.length);
      this.pending = '';
      this.mode = 'text';
      this.trimLeading = true;
      return [...(thinking ? [{ kind: 'thinking' as const, text: thinking }] : []), ...this.text(rest)];
    }
    // Hold back a tail that could be the start of the closing tag.
    let keep = 0;
    for (let k = Math.min(CLOSE.length - 1, this.pending.length); k > 0; k--) {
      if (this.pending.endsWith(CLOSE.slice(0, k))) {
        keep = k;
        break;
      }
    }
    const out = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    return out ? [{ kind: 'thinking', text: out }] : [];
  }

  /** What is still held back when the reply ends. */
  flush(): ContentPiece[] {
    const rest = this.pending;
    this.pending = '';
    if (rest === '') return [];
    return this.mode === 'inside' ? [{ kind: 'thinking', text: rest }] : this.text(rest);
  }

  private text(chunk: string): ContentPiece[] {
    let t = chunk;
    if (this.trimLeading) {
      t = t.trimStart();
      if (t !== '') this.trimLeading = false;
    }
    return t ? [{ kind: 'text', text: t }] : [];
  }
}
