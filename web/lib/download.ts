/**
 * Hands bytes the app fetched (with the session and the world header, which a plain link cannot
 * send) to the browser as a download: a temporary object URL on a link that is clicked and dropped.
 */
export function saveFile(file: { blob: Blob; filename: string }): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = file.filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by now; a later revoke only frees the memory.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
