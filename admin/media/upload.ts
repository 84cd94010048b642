// An upload with progress (docs/admin.md): the file's bytes as the body of POST /media, with its
// name and type, sent by XMLHttpRequest because fetch reports no upload progress. Same origin, so
// the session cookie goes with it, and the session's CSRF token as every write of the admin.
import { ApiError } from "../../src/client/index.ts";

export interface Uploaded {
  id: number;
}

export function uploadFile(
  siteId: number,
  file: File,
  csrfToken: string,
  onProgress: (fraction: number) => void,
): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/site/${siteId}/media?filename=${encodeURIComponent(file.name)}`);
    request.setRequestHeader("content-type", file.type || "application/octet-stream");
    request.setRequestHeader("x-csrf-token", csrfToken);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new Error("network"));
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = request.responseText;
      }
      const media = (body as { media?: Uploaded } | null)?.media;
      if (request.status < 300 && media) resolve(media);
      else reject(ApiError.from(body, { status: request.status, statusText: request.statusText }));
    };
    request.send(file);
  });
}
