/** `text` with the first place `query` occurs in it marked. */
export function Highlighted({ text, query }: { text: string; query: string }) {
  const at = query.trim() ? text.toLowerCase().indexOf(query.trim().toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  const end = at + query.trim().length;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, end)}</mark>
      {text.slice(end)}
    </>
  );
}
