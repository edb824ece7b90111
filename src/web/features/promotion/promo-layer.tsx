// Mount point for the coupon popup (issue "Public site"); renders nothing until then.
export function PromoLayer() {
  return null;
}
