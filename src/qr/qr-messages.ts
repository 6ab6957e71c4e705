/** Messages about codes and folders that both the server sends and the client shows. */
export const qrMessages = {
  notFound: 'QR code not found',
  folderNotFound: 'Folder not found',
  staticEdit: 'Static QR codes cannot be edited. Create a new QR code instead.',
  typeChange: 'The type of a QR code cannot be changed',
  dynamicChange: 'A code cannot be switched between static and dynamic',
  selfLink: 'A dynamic QR code cannot point to its own short link',
  localDestination: 'A dynamic QR code cannot point to a local or private address',
  crossSiteScan: 'A scan test must come from QR Creator itself, not from another site',
} as const;
