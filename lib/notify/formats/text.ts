/** Cuts `text` to `max` characters (code points), ending with an ellipsis when it was cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Length in code points, as the chat apps count their limits. */
export const lengthOf = (text: string) => [...text].length;
