/** '1 QR code', '1,204 QR codes'. */
export function codesLabel(n: number): string {
  return `${n.toLocaleString()} ${n === 1 ? 'QR code' : 'QR codes'}`;
}
