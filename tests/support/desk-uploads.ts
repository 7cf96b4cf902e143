/** A file as a form sends it to the desk's upload route. */
export interface UploadFile {
  bytes: Uint8Array;
  name: string;
  type: string;
  /** The form's field (the route reads `file`). */
  field?: string;
}

const formOf = ({ bytes, name, type, field = 'file' }: UploadFile) => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};

/**
 * `POST /api/desk/uploads` on a running site (`base`), as a browser's form sends a file: with
 * its length declared, or, `streamed`, chunked with none (the reader must stop at the limit).
 */
export function uploadToDesk(
  base: string,
  cookie: string | null,
  file: UploadFile,
  { streamed = false } = {},
): Promise<Response> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (!streamed) {
    return fetch(`${base}/api/desk/uploads`, { method: 'POST', headers, body: formOf(file) });
  }
  const encoded = new Response(formOf(file));
  return fetch(`${base}/api/desk/uploads`, {
    method: 'POST',
    headers: { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' },
    body: encoded.body,
    duplex: 'half',
  } as RequestInit);
}
