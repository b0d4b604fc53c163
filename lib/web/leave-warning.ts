/**
 * The browser's "leave this page?" prompt while a sealed request is in flight. A sealed answer
 * opens only with the ephemeral key held in this page's memory (never stored, on purpose), so a
 * reload or a closed tab between signing and opening loses an answer already paid for. Plain
 * requests need no prompt: they are remembered for the tab and followed again after a reload.
 */

let holds = 0;

function askBeforeLeaving(event: BeforeUnloadEvent) {
  // Both, for browsers that still read only the legacy returnValue; the text is the browser's own.
  event.preventDefault();
  event.returnValue = true;
}

/**
 * Asks before the page is left until the returned function is called (it may be called more
 * than once). Holds from several sealed requests add up: the prompt stays until all are released.
 */
export function warnBeforeLeaving(): () => void {
  if (holds++ === 0) window.addEventListener("beforeunload", askBeforeLeaving);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holds === 0) window.removeEventListener("beforeunload", askBeforeLeaving);
  };
}
