import './repo-map.css';

/**
 * A repo map's text as an outline: each `path:` line a file heading, each `  N: text` line a definition with its
 * line number set apart, anything else (a note) as it is. Copy still takes the plain text.
 */
export function RepoMapText({ text }: { text: string }) {
  return (
    <pre data-testid="tool-output-text" className="repo-map">
      {text.split('\n').map((line, i) => {
        const def = /^(\s+\d+): (.*)$/.exec(line);
        const key = `${i}`;
        if (def) {
          return (
            <span key={key} className="repo-map-def">
              <span className="repo-map-line">{def[1]}</span> {def[2]}
              {'\n'}
            </span>
          );
        }
        if (/^\S.*:$/.test(line)) {
          return (
            <span key={key} className="repo-map-file">
              {line.slice(0, -1)}
              {'\n'}
            </span>
          );
        }
        return (
          <span key={key}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
