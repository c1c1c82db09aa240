export interface Shop {
  code: string;
  name: string;
  timeZone: string;
  currency: string;
}
