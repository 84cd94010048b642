// Where the admin answers on its host (docs/admin.md): its page at `/admin/` and any client route
// under it, its built files under `/admin/assets/`.

/** The admin's own address: its page; `/admin` and `/` on the admin's host redirect here. */
export const ADMIN_ADDRESS = "/admin/";

/** Where the built files are served, by their hashed names. */
export const ASSETS_ADDRESS = "/admin/assets/";
