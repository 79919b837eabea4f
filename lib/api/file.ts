/**
 * A download: the content as an attachment with its file name. Every file answer of the service
 * (the API's monthly report PDF through the pipeline's `file` option, the dashboard's CSV exports)
 * leaves through here, so none is cached by a shared proxy or the browser (the data is one
 * tenant's and changes) and no file name can break out of its header.
 */
export function attachmentResponse(
  content: Uint8Array | ReadableStream<Uint8Array>,
  file: { contentType: string; filename: string },
): Response {
  // Bytes from Node (a Buffer, a bytea column) never sit on a SharedArrayBuffer, the one backing
  // the Fetch API refuses; the type cannot say so.
  return new Response(content as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${safeFileName(file.filename)}"`,
      'cache-control': 'private, no-store',
    },
  });
}

/** Anything but letters, digits, dot, dash and underscore becomes `_` (quotes, CR/LF, non-ASCII). */
const safeFileName = (name: string) => name.replace(/[^\w.-]/g, '_');
