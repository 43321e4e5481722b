/**
 * Wraps a gateway's code-issuing call so that a test can have its next answers repeat a code that is
 * still live (a collision), as a real gateway's random codes rarely do. Records every code answered.
 */
export function collidingCodes<Request, Issued extends { code: string }>(issue: (request: Request) => Promise<Issued>) {
  const issuedCodes: string[] = [];
  let repeatedCode: string | undefined;
  let repeatsLeft = 0;
  return {
    issuedCodes,
    /** The next `times` issues answer `code` instead of a fresh one. */
    repeat(code: string, times: number): void {
      repeatedCode = code;
      repeatsLeft = times;
    },
    issue: async (request: Request): Promise<Issued> => {
      const issued = await issue(request);
      const code = repeatsLeft > 0 && repeatedCode !== undefined ? repeatedCode : issued.code;
      repeatsLeft -= 1;
      issuedCodes.push(code);
      return { ...issued, code };
    },
  };
}
